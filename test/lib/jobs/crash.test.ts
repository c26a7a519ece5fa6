/**
 * A worker process killed mid-job: the job stays claimed until its lease runs out, then a worker of
 * another process takes it over and finishes it. The receiver sees the alert at most twice, under
 * one delivery id, and the job ends done once.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { enqueueJob } from '../../../lib/support/enqueue';
import { supportJobHandlers } from '../../../lib/support/jobs/handlers';
import { JobWorker } from '../../../lib/jobs/worker';
import { fixedClock, systemClock, unixSeconds } from '../../../lib/wp/clock';
import { TestSite, openTestSite, setSupportSettings } from '../../harness/site';
import { WebhookReceiver, startWebhookReceiver } from '../../harness/webhook-receiver';

const CHILD = path.resolve(__dirname, '../../harness/worker-child.ts');

/** Starts the child worker and resolves once it has opened the site and started its worker. */
function startChildWorker(config: unknown, id: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', CHILD, JSON.stringify(config), id], { cwd: path.resolve(__dirname, '../../..'), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => { stderr += c.toString(); });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => { if (c.toString().includes('ready')) resolve(child); });
    child.once('exit', (code) => reject(new Error(`worker child exited with ${code}: ${stderr}`)));
  });
}

describe('a worker process killed mid-job', function () {
  this.timeout(60_000);
  let t: TestSite;
  let receiver: WebhookReceiver;
  let child: ChildProcess | undefined;
  before(async () => {
    receiver = await startWebhookReceiver();
    t = await openTestSite();
  });
  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await t?.close();
    await receiver?.close();
  });

  it('leaves the job to a worker of another process, which finishes it once the lease has run out', async () => {
    await setSupportSettings(t.site, { alerts_url: `${receiver.url}/hook` });
    const jobId = await enqueueJob(t.site.db.knex, t.site.db.tables, 'team_alert', { event: 'test', ticket_id: 0 }, unixSeconds(systemClock));
    receiver.hold(true);
    child = await startChildWorker(t.config, 'child-worker');
    const [first] = await receiver.waitFor(1, 20_000);
    const claimed = await t.site.db.knex(t.site.db.tables.plugin('svc', 'jobs')).where({ id: jobId }).first();
    assert.deepEqual([claimed.status, claimed.locked_by, Number(claimed.attempts)], ['running', 'child-worker', 1]);

    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    receiver.hold(false);

    // Another process, its clock past the 30-second lease the child took (no waiting on real time).
    const other = await t.openAnother({ clock: fixedClock(Date.now() + 31_000) });
    const worker = new JobWorker(other, { handlers: supportJobHandlers() });
    assert.equal(await worker.runDueJobs(), 1);
    assert.equal(await worker.runDueJobs(), 0, 'nothing left to do');

    assert.equal(receiver.received.length, 2);
    assert.deepEqual(receiver.received.map((h) => h.headers['x-svc-delivery']), [first?.headers['x-svc-delivery'], first?.headers['x-svc-delivery']]);
    const job = await t.site.db.knex(t.site.db.tables.plugin('svc', 'jobs')).where({ id: jobId }).first();
    assert.deepEqual([job.status, Number(job.attempts), job.locked_by, job.last_error], ['done', 2, null, null]);
  });
});
