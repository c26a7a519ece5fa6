/** The job table as a queue: claims are exclusive, leases run out, and failures are scheduled. */
import assert from 'node:assert/strict';
import { JobQueue } from '../../../lib/jobs/queue';
import { fixedClock, unixSeconds } from '../../../lib/wp/clock';
import { Site } from '../../../lib/wp/site';
import { TestSite, openTestSite } from '../../harness/site';

describe('JobQueue', function () {
  let t: TestSite;
  let site: Site;
  let queue: JobQueue;
  before(async () => {
    t = await openTestSite();
    site = t.site;
    queue = new JobQueue(site.db, t.clock);
  });
  after(async () => { await t?.close(); });
  beforeEach(async () => { await jobs().del(); });

  const jobs = () => site.db.knex(site.db.tables.plugin('svc', 'jobs'));
  const now = () => unixSeconds(t.clock);
  const insert = async (fields: Record<string, unknown> = {}) => {
    const [id] = await jobs().insert({ kind: 'probe', payload: '{"n":1}', status: 'queued', run_at: now(), attempts: 0, created_at: now(), updated_at: now(), ...fields });
    return Number(id);
  };
  const row = (id: number) => jobs().where({ id }).first();

  it('claims a due job for one worker: running, locked, one attempt', async () => {
    const id = await insert();
    const job = await queue.claim('w1', ['probe'], 60);
    assert.deepEqual(job, { id, kind: 'probe', payload: { n: 1 }, attempts: 1, lockedBy: 'w1', lockedUntil: now() + 60 });
    const stored = await row(id);
    assert.deepEqual([stored.status, Number(stored.attempts), stored.locked_by, Number(stored.locked_until)], ['running', 1, 'w1', now() + 60]);
    assert.equal(await queue.claim('w2', ['probe'], 60), null, 'a held job is not claimed again');
  });

  it('leaves jobs that are not due yet, and kinds it was not asked for', async () => {
    await insert({ run_at: now() + 1 });
    await insert({ kind: 'other' });
    assert.equal(await queue.claim('w1', ['probe'], 60), null);
  });

  it('claims the earliest due job first', async () => {
    const later = await insert({ run_at: now() - 5 });
    const earlier = await insert({ run_at: now() - 50 });
    assert.equal((await queue.claim('w1', ['probe'], 60))?.id, earlier);
    assert.equal((await queue.claim('w1', ['probe'], 60))?.id, later);
  });

  it('hands a job whose lease ran out to another worker; the first can no longer finish it', async () => {
    const id = await insert();
    const first = await queue.claim('crashed', ['probe'], 30);
    assert.ok(first);
    const later = new JobQueue(site.db, fixedClock(t.clock.now() + 31_000));
    const second = await later.claim('w2', ['probe'], 30);
    assert.equal(second?.id, id);
    assert.equal(second?.attempts, 2, 'the crashed attempt counts');
    assert.equal(await queue.complete(first), false, 'the first holder lost the job');
    assert.equal(await later.complete(second), true);
    const stored = await row(id);
    assert.deepEqual([stored.status, Number(stored.attempts), stored.locked_by, stored.locked_until], ['done', 2, null, null]);
  });

  it('renews a lease while the job runs, so nobody takes it over', async () => {
    await insert();
    const job = await queue.claim('w1', ['probe'], 30);
    assert.ok(job);
    t.clock.advance(20_000);
    assert.equal(await queue.renew(job, 30), true);
    const later = new JobQueue(site.db, fixedClock(t.clock.now() + 20_000));
    assert.equal(await later.claim('w2', ['probe'], 30), null);
  });

  it('puts a failed job back for its retry time, or fails it for good', async () => {
    const id = await insert();
    const job = await queue.claim('w1', ['probe'], 60);
    assert.ok(job);
    assert.equal(await queue.fail(job, 'HTTP 503', now() + 60), true);
    let stored = await row(id);
    assert.deepEqual([stored.status, Number(stored.run_at), stored.last_error, stored.locked_by], ['queued', now() + 60, 'HTTP 503', null]);
    assert.equal(await queue.claim('w1', ['probe'], 60), null, 'not before its time');
    t.clock.advance(60_000);
    const again = await queue.claim('w1', ['probe'], 60);
    assert.equal(again?.attempts, 2);
    assert.ok(again);
    await queue.fail(again, 'HTTP 404', null);
    stored = await row(id);
    assert.deepEqual([stored.status, Number(stored.attempts), stored.last_error], ['failed', 2, 'HTTP 404']);
  });

  it('gives every job to exactly one of two workers claiming at once over separate connections', async () => {
    const other = await t.openAnother();
    const otherQueue = new JobQueue(other.db, t.clock);
    const ids = await Promise.all(Array.from({ length: 30 }, () => insert()));
    const drain = async (q: JobQueue, worker: string) => {
      const got: number[] = [];
      for (let job = await q.claim(worker, ['probe'], 60); job; job = await q.claim(worker, ['probe'], 60)) got.push(job.id);
      return got;
    };
    const [a, b] = await Promise.all([drain(queue, 'w1'), drain(otherQueue, 'w2')]);
    assert.deepEqual([...a, ...b].sort((x, y) => x - y), [...ids].sort((x, y) => x - y), 'each job claimed once, none left');
    const rows = await jobs().select('id', 'attempts', 'locked_by');
    for (const r of rows) assert.equal(Number(r.attempts), 1);
    assert.equal(rows.filter((r) => r.locked_by === 'w1').length, a.length);
  });

  it('deletes done jobs after they have been kept long enough, and keeps failed ones', async () => {
    const old = await insert({ status: 'done', updated_at: now() - 100 });
    const failed = await insert({ status: 'failed', updated_at: now() - 100 });
    const recent = await insert({ status: 'done' });
    assert.equal(await queue.pruneDone(now() - 10), 1);
    assert.deepEqual((await jobs().select('id').orderBy('id')).map((r) => Number(r.id)), [failed, recent].sort((x, y) => x - y));
    assert.equal(await row(old), undefined);
  });
});
