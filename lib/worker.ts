/**
 * The job worker every server process runs (`serve`, and `proxy` unless it shadows writes into a
 * copy): one worker over the shared job table (lib/jobs), with the handlers of every plugin's job kinds.
 * The plugins know nothing of each other, so their handlers meet here, above both.
 */
import { formJobHandlers } from './forms/notifications';
import { JobHandler } from './jobs/handler';
import { JobWorker, WorkerOptions } from './jobs/worker';
import { HandlerOptions, supportJobHandlers } from './support/jobs/handlers';
import { Site } from './wp/site';

/** Every job kind this version runs, and its handler. */
export function jobHandlers(options: HandlerOptions = {}): Record<string, JobHandler> {
  return { ...supportJobHandlers(options), ...formJobHandlers() };
}

/** A started worker for `site`: every kind unless `handlers` says otherwise. */
export function startJobWorker(site: Site, options: Partial<WorkerOptions> & HandlerOptions = {}): JobWorker {
  const worker = new JobWorker(site, { ...options, handlers: options.handlers ?? jobHandlers(options) });
  worker.start();
  return worker;
}
