/**
 * The oracle opened as a production site (application passwords only over HTTPS, as WordPress), so
 * that a test can see whether Understudy took a request to be secure.
 */
import fs from 'node:fs';
import { openSite } from '../../lib/boot';
import { memoryLogger } from '../../lib/logger';
import { fixedClock } from '../../lib/wp/clock';
import { Site } from '../../lib/wp/site';
import { scratchDatabase, ScratchDatabase } from '../harness/db';
import { credentials, loadOracleInto, oracleConfig } from '../harness/oracle';

export interface ProductionOracle {
  site: Site;
  scratch: ScratchDatabase;
  clock: ReturnType<typeof fixedClock>;
  close(): Promise<void>;
}

export async function openProductionOracle(): Promise<ProductionOracle> {
  const scratch = await scratchDatabase();
  await loadOracleInto(scratch);
  const clock = fixedClock(credentials.generated_at * 1000);
  const { site } = await openSite({ ...oracleConfig(scratch), environmentType: 'production' }, { logger: memoryLogger(), clock });
  return {
    site, scratch, clock,
    async close() {
      await site.close();
      await scratch.drop();
      fs.rmSync(site.config.dataDir, { recursive: true, force: true });
    },
  };
}

/** `Authorization: Basic …` for an oracle user's application password. */
export function basicAuth(login: 'agent1' | 'admin' | 'customer1'): string {
  return credentials.application_passwords[login].basic_auth_header as string;
}

/** The last_ip WordPress keeps for a user's application passwords (the one used). */
export async function lastAppPasswordIp(site: Site, userId: number): Promise<string | null> {
  const row = await site.db.knex('wp_usermeta').where({ user_id: userId, meta_key: '_application_passwords' }).first();
  const match = /s:7:"last_ip";s:\d+:"([^"]*)"/.exec(String(row?.meta_value ?? ''));
  return match ? (match[1] as string) : null;
}
