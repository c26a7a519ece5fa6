/** `understudy doc stats [<id>]` against a scratch database: the counts agents see, as JSON and as a table. */
import assert from 'node:assert/strict';
import { OpenedSite } from '../../../../lib/boot';
import { recordFeedback } from '../../../../lib/support/docs/feedback';
import { insertDocs } from '../../../../lib/support/docs/store';
import { docVisitor } from '../../../../lib/support/docs/visitor';
import { ScratchDatabase, scratchDatabase } from '../../../harness/db';
import { cli, envFor, openFor } from '../../../cli/cli-harness';

describe('understudy doc stats', function () {
  let db: ScratchDatabase;
  let env: Record<string, string>;
  let opened: OpenedSite;
  let voted: number;
  let quiet: number;

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target);
    opened = await openFor(env);
    const site = opened.site;
    [voted, quiet] = await insertDocs(site, [
      { slug: 'voted', title: 'Voted &amp; discussed', content: 'x', collections: ['basics'] },
      { slug: 'quiet', title: 'Nobody voted', content: 'y', collections: ['basics'] },
    ]);
    const readers = await Promise.all(['192.0.2.1', '192.0.2.2', '2001:db8::3'].map((ip) => docVisitor(site, ip)));
    await recordFeedback(site, voted!, readers[0]!, { helpful: true, comment: 'Thanks' });
    await recordFeedback(site, voted!, readers[1]!, { helpful: true, comment: '' });
    await recordFeedback(site, voted!, readers[2]!, { helpful: true, comment: '' });
    // The same reader again that day: the vote is replaced.
    await recordFeedback(site, voted!, readers[2]!, { helpful: false, comment: 'Wrong screenshot' });
  });
  after(async () => {
    await opened?.site.close();
    await db?.drop();
  });

  it('lists every doc with votes as JSON', async () => {
    const run = await cli(['doc', 'stats', '--format=json'], env);
    assert.equal(run.status, 0, run.stderr);
    const [row] = JSON.parse(run.stdout);
    assert.deepEqual({ ...row, latest_comments: undefined }, { id: voted, title: 'Voted & discussed', status: 'publish', helpful: 2, not_helpful: 1, comments: 2, latest_comments: undefined });
    assert.deepEqual(row.latest_comments.map((c: { helpful: boolean; comment: string }) => [c.helpful, c.comment]), [[false, 'Wrong screenshot'], [true, 'Thanks']]);
    assert.match(row.latest_comments[0].day, /^\d{4}-\d\d-\d\d$/);
  });

  it('shows the comments\' text under the counts, newest first, as many as --comments asks', async () => {
    const run = await cli(['doc', 'stats'], env);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /Newest comments:\n.*\n\| id +\| day +\| vote +\| comment +\|/);
    assert.match(run.stdout, new RegExp(`\\| ${voted} +\\| \\d{4}-\\d\\d-\\d\\d \\| not helpful \\| Wrong screenshot \\|\\n\\| ${voted} +\\| \\S+ +\\| helpful +\\| Thanks +\\|`));
    const one = await cli(['doc', 'stats', '--comments=1', '--json'], env);
    assert.deepEqual(JSON.parse(one.stdout)[0].latest_comments.map((c: { comment: string }) => c.comment), ['Wrong screenshot']);
    assert.doesNotMatch((await cli(['doc', 'stats', String(quiet)], env)).stdout, /Newest comments/);
  });

  it('shows one doc, votes or not, as a table', async () => {
    const run = await cli(['doc', 'stats', String(quiet)], env);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /\| id +\| title +\| status +\| helpful \| not_helpful \| comments \|/);
    assert.match(run.stdout, new RegExp(`\\| ${quiet} +\\| Nobody voted \\| publish +\\| 0 +\\| 0 +\\| 0 +\\|`));
  });

  it('refuses an unknown doc and a bad ID', async () => {
    const unknown = await cli(['doc', 'stats', '999999'], env);
    assert.equal(unknown.status, 1);
    assert.equal(unknown.stderr, 'Error: Could not find the doc with ID 999999.\n');
    assert.equal((await cli(['doc', 'stats', 'abc'], env)).status, 1);
    assert.equal((await cli(['doc', 'list'], env)).status, 1);
  });
});
