/**
 * `understudy mail receipts` over a scratch database: receipts of mail accepted on three days, listed
 * newest first and filtered by outcome, reason, mailbox and date, as a table and as JSON.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { OpenedSite } from '../../lib/boot';
import { acceptEmail } from '../../lib/support/inbound/intake';
import { addMailbox } from '../../lib/support/mailboxes/admin';
import { findMailbox } from '../../lib/support/mailboxes/store';
import { uploadsDirOf } from '../../lib/support/tickets/attachments';
import { fixedClock } from '../../lib/wp/clock';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { cli, envFor, openFor, scratchDir } from './cli-harness';

const DAY = 86_400_000;
const MARCH_1 = Date.UTC(2026, 2, 1, 12, 0, 0);

function rawMessage(headers: string[], body = 'Hello.'): Buffer {
  return Buffer.from([...headers, 'To: help@example.test', 'Content-Type: text/plain; charset=utf-8', '', body, ''].join('\r\n'));
}

describe('understudy mail receipts', function () {
  this.timeout(60_000);
  let db: ScratchDatabase;
  let env: Record<string, string>;
  let opened: OpenedSite;
  const clock = fixedClock(MARCH_1);
  /** Receipt IDs by what the message was. */
  const ids: Record<string, string> = {};

  before(async () => {
    db = await scratchDatabase();
    const cwd = scratchDir();
    env = envFor(db.target, { UNDERSTUDY_DATA_DIR: path.join(cwd, 'data') });
    opened = await openFor(env, clock, cwd);
    const { site } = opened;
    await addMailbox(site, 'help', { address: 'help@example.test' });
    await addMailbox(site, 'sales', { address: 'sales@example.test' });
    const accept = async (name: string, mailboxKey: string, raw: Buffer) => {
      const mailbox = await findMailbox(site.db, mailboxKey);
      ids[name] = (await acceptEmail(site, mailbox!, raw, { deliveryId: `cli-test-${name}-0000000000` }, { strict: false, vouched: true })).receiptId;
    };
    await accept('ticket', 'help', rawMessage(['From: Ana <ana@example.net>', 'Subject: Order late', 'Message-ID: <a1@example.net>']));
    clock.advance(DAY);
    await accept('auto', 'help', rawMessage(['From: Ana <ana@example.net>', 'Auto-Submitted: auto-replied', 'Subject: Away', 'Message-ID: <a2@example.net>']));
    clock.advance(DAY);
    await accept('bulk', 'sales', rawMessage(['From: news@shop.example', 'Precedence: bulk', 'Subject: News | week 10', 'Message-ID: <a3@example.net>']));
  });
  after(async () => {
    if (opened) fs.rmSync(uploadsDirOf(opened.site.config), { recursive: true, force: true });
    await opened?.site.close();
    await db?.drop();
  });

  async function json(argv: string[]): Promise<Array<Record<string, unknown>>> {
    const run = await cli(['mail', 'receipts', ...argv, '--format=json'], env);
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout);
  }
  const receiptIds = async (argv: string[]) => (await json(argv)).map((r) => r.receipt_id);

  it('lists every receipt newest first as JSON: outcome, reason, From, subject, ticket, and whether ignored mail is kept', async () => {
    const all = await json([]);
    assert.deepEqual(all.map((r) => r.receipt_id), [ids.bulk, ids.auto, ids.ticket]);
    assert.deepEqual(all[0], {
      receipt_id: ids.bulk, received_at: '2026-03-03T12:00:00Z', mailbox: 'sales', outcome: 'ignored', reason: 'precedence',
      ticket_id: null, raw_from: 'news@shop.example', subject: 'News | week 10', message_kept: true,
    });
    assert.deepEqual([all[2]?.outcome, all[2]?.reason, typeof all[2]?.ticket_id, all[2]?.message_kept], ['ticket_created', null, 'number', null]);
  });

  it('filters by outcome, reason, mailbox and date', async () => {
    assert.deepEqual(await receiptIds(['--outcome=ignored']), [ids.bulk, ids.auto]);
    assert.deepEqual(await receiptIds(['--outcome=ticket_created']), [ids.ticket]);
    assert.deepEqual(await receiptIds(['--reason=auto_submitted']), [ids.auto]);
    assert.deepEqual(await receiptIds(['--mailbox=help']), [ids.auto, ids.ticket]);
    assert.deepEqual(await receiptIds(['--since=2026-03-02']), [ids.bulk, ids.auto]);
    assert.deepEqual(await receiptIds(['--until=2026-03-02']), [ids.auto, ids.ticket], 'a date alone: up to the end of that day');
    assert.deepEqual(await receiptIds(['--since=2026-03-02T12:00:01Z', '--until=2026-03-03T12:00:00Z']), []);
    assert.deepEqual(await receiptIds(['--since=2026-03-02', '--until=2026-03-02', '--mailbox=help', '--outcome=ignored']), [ids.auto]);
  });

  it('prints a table, and refuses bad values', async () => {
    const table = await cli(['mail', 'receipts', '--outcome=ignored'], env);
    assert.equal(table.status, 0, table.stderr);
    const lines = table.stdout.trim().split('\n');
    assert.match(lines[1] as string, /^\| receipt_id +\| received_at +\| mailbox +\| outcome +\| reason +\| ticket_id +\| raw_from +\| subject +\| message_kept \|$/);
    assert.equal(lines.length, 6, table.stdout);
    assert.match(lines[3] as string, new RegExp(`^\\| ${ids.bulk} \\| 2026-03-03T12:00:00Z \\| sales +\\| ignored +\\| precedence +\\| +\\| news@shop.example +\\| News \\| week 10 \\| yes +\\|$`));
    assert.equal((await cli(['mail', 'receipts', '--reason=spam'], env)).stdout.trim(), 'No receipts match.');
    for (const bad of [['--outcome=lost'], ['--since=yesterday'], ['--limit=0'], ['extra']]) {
      const run = await cli(['mail', 'receipts', ...bad], env);
      assert.equal(run.status, 1, bad.join(' '));
      assert.match(run.stderr, /^Error: /);
    }
  });
});
