/**
 * A server process's job worker, alone in a child process, for crash tests: opens the site the JSON
 * config (argv[2]) describes, starts the job worker (every kind) under the id argv[3], prints `ready` and
 * runs until it is killed.
 */
import { openSite } from '../../lib/boot';
import { memoryLogger } from '../../lib/logger';
import { SiteConfig } from '../../lib/wp/config';
import { startJobWorker } from '../../lib/worker';

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] as string) as SiteConfig;
  const { site } = await openSite(config, { logger: memoryLogger() });
  startJobWorker(site, { id: process.argv[3], leaseSeconds: 30 });
  process.stdout.write('ready\n');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
