/**
 * Records the capture corpus in fixtures/captures/ from a running Understudy over the oracle site
 * (clock fixed where its credentials were issued): requests built from fixtures/oracle credentials,
 * answers as Understudy gives them. Run it again after a deliberate change of behaviour:
 *
 *   npx tsx test/harness/record-corpus.ts
 *
 * URLs are written with the oracle's own address (http://127.0.0.1:8081), as a capture from that
 * site would hold them. One exchange is rewritten to carry a "production" application password,
 * which fixtures/captures/corpus-rules.json swaps for the oracle's, to keep substitution exercised.
 */
import fs from 'node:fs';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { HeaderList } from '../../lib/replay/capture';
import { sendCaptured } from '../../lib/replay/send';
import { credentials, openOracle } from './oracle';

const SITE = String(credentials.site_url);
const OUT = path.resolve(__dirname, '../../fixtures/captures');
export const PRODUCTION_ONLY = 'agent1:PRODUCTION-ONLY-APP-PASSWORD';

interface Spec {
  name: string;
  method?: string;
  path: string;
  headers?: HeaderList;
  body?: string;
}

const session = (login: string) => credentials.sessions[login];
const cookie = (login: string): [string, string] => ['Cookie', session(login).logged_in_cookie.header];
const nonce = (login: string): [string, string] => ['X-WP-Nonce', session(login).rest_nonce];
const basic = (login: string): [string, string] => ['Authorization', credentials.application_passwords[login].basic_auth_header];
const form: [string, string] = ['Content-Type', 'application/x-www-form-urlencoded'];
const AJAX = '/wp-admin/admin-ajax.php';

const USERS_ME: Spec[] = [
  { name: 'users/me cookie+nonce (manager1)', path: '/wp-json/wp/v2/users/me', headers: [cookie('manager1'), nonce('manager1')] },
  { name: 'users/me?context=edit basic (admin)', path: '/wp-json/wp/v2/users/me?context=edit', headers: [basic('admin')] },
  { name: 'users/me?context=embed basic (editor1)', path: '/wp-json/wp/v2/users/me?context=embed', headers: [basic('editor1')] },
  { name: 'users/me?_fields=id,slug,avatar_urls basic (customer2)', path: '/wp-json/wp/v2/users/me?_fields=id,slug,avatar_urls', headers: [basic('customer2')] },
  { name: 'users/me HEAD basic (agent1)', method: 'HEAD', path: '/wp-json/wp/v2/users/me', headers: [basic('agent1')] },
  { name: 'users/me?context=bogus (invalid param)', path: '/wp-json/wp/v2/users/me?context=bogus', headers: [basic('agent1')] },
  { name: 'users/me cookie + logged-out nonce', path: '/wp-json/wp/v2/users/me', headers: [cookie('agent1'), ['X-WP-Nonce', credentials.nonces.logged_out_wp_rest]] },
  { name: 'users/me?_envelope anonymous', path: '/wp-json/wp/v2/users/me?_envelope' },
  { name: 'users/me?_jsonp=cb basic (customer1)', path: '/wp-json/wp/v2/users/me?_jsonp=cb', headers: [basic('customer1')] },
  { name: 'users/me with a production-only app password (swapped by corpus-rules.json)', path: '/wp-json/wp/v2/users/me', headers: [basic('agent1')] },
];

// Refusals and errors only: their answers stay put while the plugins' routes grow (the namespace
// index, for one, changes with every route added).
const PLUGIN_ROUTES: Spec[] = [
  { name: 'support/v1/tickets anonymous', path: '/wp-json/support/v1/tickets' },
  { name: 'support/v1/tickets?status=bogus (agent1)', path: '/wp-json/support/v1/tickets?status=bogus', headers: [basic('agent1')] },
  { name: 'support/v1/nope (no route)', path: '/wp-json/support/v1/nope' },
  { name: 'frm/forms anonymous', path: '/wp-json/frm/forms' },
];

const ADMIN_AJAX: Spec[] = [
  { name: 'admin-ajax rest-nonce (manager1 cookie)', path: `${AJAX}?action=rest-nonce`, headers: [cookie('manager1')] },
  { name: 'admin-ajax logged-in (customer1 auth cookie)', path: `${AJAX}?action=logged-in`, headers: [['Cookie', session('customer1').auth_cookie.header]] },
  { name: 'admin-ajax logged-in anonymous', path: `${AJAX}?action=logged-in` },
  { name: 'admin-ajax rest-nonce named in a POST body', method: 'POST', path: AJAX, headers: [cookie('agent1'), form], body: 'action=rest-nonce' },
  { name: 'admin-ajax frm_admin_action anonymous', method: 'POST', path: AJAX, headers: [form], body: 'action=frm_admin_action' },
  { name: 'admin-ajax frm_form_submit for a form that does not exist', method: 'POST', path: AJAX, headers: [form], body: 'action=frm_form_submit&form_id=999' },
  { name: 'admin-ajax POST without an action', method: 'POST', path: AJAX, headers: [form], body: 'foo=bar' },
];

async function record(target: string, specs: Spec[]) {
  const out = [];
  for (const spec of specs) {
    const request = { method: spec.method ?? 'GET', url: SITE + spec.path, headers: [['Accept', 'application/json'], ...(spec.headers ?? [])] as HeaderList, body: spec.body ?? null };
    const answer = await sendCaptured(request, target);
    const headers = answer.headers.filter(([n]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(n.toLowerCase()));
    out.push({ name: spec.name, request, response: { status: answer.status, headers, body: answer.body } });
  }
  return out;
}

function har(exchanges: Awaited<ReturnType<typeof record>>): unknown {
  const pairs = (list: HeaderList) => list.map(([name, value]) => ({ name, value }));
  return {
    log: {
      version: '1.2',
      creator: { name: 'understudy test/harness/record-corpus.ts', version: '1' },
      entries: exchanges.map((e) => {
        const url = new URL(e.request.url);
        const type = e.response.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
        const authorization = e.name.includes('production-only') ? `Basic ${Buffer.from(PRODUCTION_ONLY).toString('base64')}` : undefined;
        const requestHeaders = e.request.headers.map(([n, v]): [string, string] => [n, n === 'Authorization' && authorization ? authorization : v]);
        return {
          startedDateTime: new Date(credentials.generated_at * 1000).toISOString(), time: 0, comment: e.name,
          request: {
            method: e.request.method, url: e.request.url, httpVersion: 'HTTP/1.1', cookies: [], headers: pairs(requestHeaders),
            queryString: [...url.searchParams].map(([name, value]) => ({ name, value })), headersSize: -1, bodySize: e.request.body?.length ?? 0,
            ...(e.request.body === null ? {} : { postData: { mimeType: 'application/x-www-form-urlencoded', text: e.request.body } }),
          },
          response: {
            status: e.response.status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: pairs(e.response.headers),
            content: { size: Buffer.byteLength(e.response.body), mimeType: type, text: e.response.body }, redirectURL: '', headersSize: -1, bodySize: -1,
          },
          cache: {}, timings: { send: 0, wait: 0, receive: 0 },
        };
      }),
    },
  };
}

async function main() {
  const oracle = await openOracle();
  const server = oracle.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    fs.writeFileSync(path.join(OUT, 'users-me.har'), `${JSON.stringify(har(await record(target, USERS_ME)), null, 2)}\n`);
    fs.writeFileSync(path.join(OUT, 'plugin-routes.har'), `${JSON.stringify(har(await record(target, PLUGIN_ROUTES)), null, 2)}\n`);
    // admin-ajax in the project's own JSON format (the oracle's), so both formats stay in the corpus.
    fs.writeFileSync(path.join(OUT, 'admin-ajax.json'), `${JSON.stringify(await record(target, ADMIN_AJAX), null, 2)}\n`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await oracle.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  });
}
