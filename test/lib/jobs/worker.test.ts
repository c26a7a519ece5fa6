/** The worker: handlers by kind under a concurrency limit, retries on schedule, wake-ups and a graceful stop. */
import assert from 'node:assert/strict';
import { enqueueJob } from '../../../lib/jobs/enqueue';
import { JobHandler, PermanentJobError } from '../../../lib/jobs/handler';
import { ClaimedJob } from '../../../lib/jobs/queue';
import { JobWorker } from '../../../lib/jobs/worker';
import { systemClock, unixSeconds } from '../../../lib/wp/clock';
import { Site } from '../../../lib/wp/site';
import { eventually } from '../../harness/eventually';
import { TestSite, openTestSite } from '../../harness/site';

/** The timers that keep this process alive (a tick left running would). */
function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}

/** A handler that records what it ran and can be made to wait or fail. */
function probe(options: { fail?: (job: ClaimedJob) => Error | null; gate?: Promise<void>; delays?: number[] } = {}) {
  const ran: Array<{ id: number; attempt: number; at: number }> = [];
  let active = 0;
  let maxActive = 0;
  const handler: JobHandler = {
    retryDelays: options.delays ?? [60, 300],
    async run(_site: Site, job: ClaimedJob) {
      active++;
      maxActive = Math.max(maxActive, active);
      ran.push({ id: job.id, attempt: job.attempts, at: Date.now() });
      try {
        await (options.gate ?? new Promise((resolve) => setTimeout(resolve, 5)));
        const err = options.fail?.(job);
        if (err) throw err;
      } finally {
        active--;
      }
    },
  };
  return { handler, ran, maxActive: () => maxActive };
}

describe('JobWorker', function () {
  let t: TestSite;
  const workers: JobWorker[] = [];
  before(async () => { t = await openTestSite(); });
  after(async () => { await t?.close(); });
  beforeEach(async () => { await jobs().del(); });
  afterEach(async () => { await Promise.all(workers.splice(0).map((w) => w.stop())); });

  const jobs = () => t.site.db.knex(t.site.db.tables.plugin('svc', 'jobs'));
  const now = () => unixSeconds(t.clock);
  const insert = async (kind = 'probe', runAt = now()) => {
    const [id] = await jobs().insert({ kind, payload: '{}', status: 'queued', run_at: runAt, attempts: 0, created_at: runAt, updated_at: runAt });
    return Number(id);
  };
  const worker = (site: Site, handlers: Record<string, JobHandler>, concurrency = 4) => {
    const w = new JobWorker(site, { handlers, concurrency });
    workers.push(w);
    return w;
  };
  const statusOf = async (id: number) => (await jobs().where({ id }).first()).status;

  it('runs each due job with the handler of its kind and marks it done', async () => {
    const a = probe();
    const b = probe();
    const ids = [await insert('probe'), await insert('other'), await insert('probe')];
    assert.equal(await worker(t.site, { probe: a.handler, other: b.handler }).runDueJobs(), 3);
    assert.deepEqual(a.ran.map((r) => r.id), [ids[0], ids[2]]);
    assert.deepEqual(b.ran.map((r) => r.id), [ids[1]]);
    for (const id of ids) assert.equal(await statusOf(id), 'done');
  });

  it('runs no more jobs at once than its concurrency', async () => {
    // Jobs wait until two run at once (so the limit is reached whatever the machine's speed); a
    // worker that ignored it would have started more by then.
    let opened = () => {};
    const twoRunning = new Promise<void>((resolve) => { opened = resolve; });
    const p = probe({ gate: twoRunning });
    const watch = { ...p.handler, run: async (site: Site, job: ClaimedJob) => { if (p.ran.length === 1) opened(); return p.handler.run(site, job); } };
    for (let i = 0; i < 7; i++) await insert();
    assert.equal(await worker(t.site, { probe: watch }, 2).runDueJobs(), 7);
    assert.equal(p.maxActive(), 2);
  });

  it('schedules a failed job by its handler\'s delays, then fails it; a permanent error fails it at once', async () => {
    const p = probe({ fail: () => new Error('try later'), delays: [60, 300] });
    const id = await insert();
    const w = worker(t.site, { probe: p.handler });
    const t0 = now();
    await w.runDueJobs();
    assert.deepEqual(await jobs().where({ id }).first('status', 'run_at', 'last_error'), { status: 'queued', run_at: t0 + 60, last_error: 'try later' });
    assert.equal(await w.runDueJobs(), 0, 'nothing before the retry time');
    t.clock.advance(60_000);
    await w.runDueJobs();
    assert.equal(Number((await jobs().where({ id }).first()).run_at), t0 + 60 + 300);
    t.clock.advance(300_000);
    await w.runDueJobs();
    assert.deepEqual(await jobs().where({ id }).first('status', 'attempts'), { status: 'failed', attempts: 3 });

    const permanent = probe({ fail: () => new PermanentJobError('gone') });
    const other = await insert('gone');
    await worker(t.site, { gone: permanent.handler }).runDueJobs();
    assert.deepEqual(await jobs().where({ id: other }).first('status', 'attempts', 'last_error'), { status: 'failed', attempts: 1, last_error: 'gone' });
  });

  it('keeps what the handler\'s donePayload leaves of a done job\'s payload, and all of a failed one\'s', async () => {
    const shrink = (payload: unknown) => ({ id: (payload as { id: number }).id });
    const ok = { ...probe().handler, donePayload: shrink };
    const broken = { ...probe({ fail: () => new PermanentJobError('no') }).handler, donePayload: shrink };
    const full = JSON.stringify({ id: 7, secret: 'visitor data' });
    const [done] = await jobs().insert({ kind: 'ok', payload: full, status: 'queued', run_at: now(), attempts: 0, created_at: now(), updated_at: now() });
    const [failed] = await jobs().insert({ kind: 'broken', payload: full, status: 'queued', run_at: now(), attempts: 0, created_at: now(), updated_at: now() });
    const [plain] = await jobs().insert({ kind: 'plain', payload: full, status: 'queued', run_at: now(), attempts: 0, created_at: now(), updated_at: now() });
    assert.equal(await worker(t.site, { ok, broken, plain: probe().handler }).runDueJobs(), 3);
    assert.deepEqual(await jobs().where({ id: done }).first('status', 'payload'), { status: 'done', payload: '{"id":7}' });
    assert.deepEqual(await jobs().where({ id: failed }).first('status', 'payload'), { status: 'failed', payload: full });
    assert.deepEqual(await jobs().where({ id: plain }).first('status', 'payload'), { status: 'done', payload: full }, 'without donePayload it is kept whole');
  });

  it('shares the queue with a worker of another process: every job runs once and ends done once', async () => {
    const other = await t.openAnother();
    const a = probe();
    const b = probe();
    const ids = await Promise.all(Array.from({ length: 24 }, () => insert()));
    await Promise.all([worker(t.site, { probe: a.handler }, 3).runDueJobs(), worker(other, { probe: b.handler }, 3).runDueJobs()]);
    const handled = [...a.ran, ...b.ran].map((r) => r.id).sort((x, y) => x - y);
    assert.deepEqual(handled, [...ids].sort((x, y) => x - y));
    const rows = await jobs().select('status', 'attempts');
    assert.deepEqual(new Set(rows.map((r) => `${r.status}/${r.attempts}`)), new Set(['done/1']));
  });

  describe('started, on real time', () => {
    let live: Site;
    before(async () => { live = await t.openAnother({ clock: systemClock }); });

    it('starts a job enqueued in this process at once, without waiting for a tick', async () => {
      const p = probe();
      worker(live, { team_alert: p.handler }).start();
      const enqueuedAt = Date.now();
      await live.db.knex.transaction((trx) => enqueueJob(trx, live.db.tables, 'team_alert', { event: 'test', ticket_id: 0 }, unixSeconds(systemClock)));
      await eventually(async () => p.ran.length === 1, 2000, 10);
      assert.ok((p.ran[0]?.at ?? Infinity) - enqueuedAt < 2000);
    });

    it('finds a job another process enqueued on its next one-second tick', async () => {
      const p = probe();
      worker(live, { probe: p.handler }).start();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const insertedAt = Date.now();
      await insert('probe', unixSeconds(systemClock));
      await eventually(async () => p.ran.length === 1, 2000, 10);
      assert.ok((p.ran[0]?.at ?? Infinity) - insertedAt < 2000);
    });

    it('lets the running job finish on stop(), then neither ticks nor answers the bell', async () => {
      let release!: () => void;
      const p = probe({ gate: new Promise<void>((resolve) => { release = resolve; }) });
      const w = new JobWorker(live, { handlers: { team_alert: p.handler } });
      await live.db.knex.raw('select 1'); // the pool's own timer starts with its first connection
      const timersBefore = activeTimers();
      w.start();
      const id = await enqueueJob(live.db.knex, live.db.tables, 'team_alert', { event: 'test', ticket_id: 0 }, unixSeconds(systemClock));
      await eventually(async () => p.ran.length === 1, 2000, 10);
      let stopped = false;
      const stopping = w.stop().then(() => { stopped = true; });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(stopped, false, 'waits for the running job');
      release();
      await stopping;
      assert.equal(await statusOf(id), 'done');
      const later = await enqueueJob(live.db.knex, live.db.tables, 'team_alert', { event: 'test', ticket_id: 0 }, unixSeconds(systemClock));
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(await statusOf(later), 'queued', 'the bell is not answered after stop()');
      assert.equal(activeTimers(), timersBefore, 'the tick is gone: nothing of the worker keeps the process alive');
    });
  });
});
