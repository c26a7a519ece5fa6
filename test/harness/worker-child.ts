/**
 * A server process's job worker, alone in a child process, for crash tests: opens the site the JSON
 * config (argv[2]) describes, starts the support worker under the id argv[3], prints `ready` and
 * runs until it is killed.
 */
import { openSite } from '../../lib/boot';
import { memoryLogger } from '../../lib/logger';
import { startSupportWorker } from '../../lib/support/jobs/start';
import { SiteConfig } from '../../lib/wp/config';

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] as string) as SiteConfig;
  const { site } = await openSite(config, { logger: memoryLogger() });
  startSupportWorker(site, { id: process.argv[3], leaseSeconds: 30 });
  process.stdout.write('ready\n');
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
