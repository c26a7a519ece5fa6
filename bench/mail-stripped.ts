/**
 * The mail suite's stripped-down intake server: the same intake as the real server's relay route
 * (the mailbox read, the signature check, `acceptEmail`: parsing, the sender, the batched writes and
 * the files) behind bare `node:http`, and nothing else: no REST routing, request pipeline, request
 * log, metrics, job worker or WordPress-shaped answer. The suite runs it beside the real server on the
 * same messages and reports the real server's CPU a message as a multiple of this one's
 * (docs/performance.md, "Mail intake"). Node's flags and the heap growth are the real server's.
 *
 *   DATABASE_URL=mysql://… PORT=… UNDERSTUDY_DATA_DIR=… (started by bench/mail.ts)
 */
import http from 'node:http';
import v8 from 'node:v8';
import { openSite } from '../lib/boot';
import { memoryLogger } from '../lib/logger';
import { acceptEmail } from '../lib/support/inbound/intake';
import { verifyRelaySignature } from '../lib/support/inbound/signature';
import { mailboxKeyOf } from '../lib/support/mailboxes/route-key';
import { findMailbox } from '../lib/support/mailboxes/store';
import { unixSeconds } from '../lib/wp/clock';
import { WpError } from '../lib/wp/errors';
import { Site } from '../lib/wp/site';
import { benchConfig, benchTarget } from './fixture';

const RELAY_PATH = /^\/wp-json\/support\/v1\/webhooks\/relay\/([\w-]+)$/;

async function receive(site: Site, req: http.IncomingMessage, body: Buffer): Promise<{ status: number; answer: unknown }> {
  const routeKey = RELAY_PATH.exec(req.url ?? '')?.[1];
  const key = routeKey ? mailboxKeyOf(routeKey, site.db.tables.blogId) : null;
  const mailbox = key ? await findMailbox(site.db, key) : null;
  if (!routeKey || !mailbox) return { status: 404, answer: { code: 'svc_mailbox_not_found' } };
  const header = (name: string) => req.headers[name] as string | undefined;
  const checked = verifyRelaySignature(mailbox.relaySecret, routeKey, { timestamp: header('x-svc-timestamp'), deliveryId: header('x-svc-delivery'), signature: header('x-svc-signature') }, body, unixSeconds(site.clock));
  if (checked instanceof WpError) return { status: checked.status, answer: { code: checked.code } };
  const receipt = await acceptEmail(site, mailbox, body, { deliveryId: checked.deliveryId }, { strict: false, vouched: true });
  return { status: 202, answer: { receipt_id: receipt.receiptId, outcome: receipt.outcome, ticket_id: receipt.ticketId } };
}

async function main(): Promise<void> {
  v8.setFlagsFromString('--heap-growing-percent=20');
  const { site } = await openSite({ ...benchConfig(benchTarget(process.env.DATABASE_URL as string)), dataDir: process.env.UNDERSTUDY_DATA_DIR as string }, { logger: memoryLogger() });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receive(site, req, Buffer.concat(chunks)).then(({ status, answer }) => {
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
      }, (err) => {
        process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
        res.writeHead(500).end();
      });
    });
  });
  server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
  process.on('SIGTERM', () => server.close(() => site.close().then(() => process.exit(0))));
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
