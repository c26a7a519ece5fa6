/** The support desk's job worker as the server runs it: every support job kind, started. */
import { Site } from '../../wp/site';
import { HandlerOptions, supportJobHandlers } from './handlers';
import { JobWorker, WorkerOptions } from './worker';

export function startSupportWorker(site: Site, options: Partial<WorkerOptions> & HandlerOptions = {}): JobWorker {
  const worker = new JobWorker(site, { ...options, handlers: options.handlers ?? supportJobHandlers(options) });
  worker.start();
  return worker;
}
