/**
 * The access matrix of a network served by one process (issue 32; docs/multisite.md, "Access on a
 * network"): every support/v1 route and the form service's route and actions, asked by each caller on
 * each site. A caller's rights on a site are their role there (roleOn()): a member has their role, a
 * super admin has every right on every site, anyone else signed in is a customer, and the anonymous
 * visitor is anonymous. Things of site 2 (access-fixtures.ts) are found on site 2 only: their IDs,
 * keys and tokens name nothing elsewhere, but for a mailbox's route key, which names its blog and is
 * served by it at any address of the network. An archived site answers 410 to everyone but a super
 * admin signed in by cookie.
 *
 * Each row says, for one request, what a cell answers from the caller's rights on the site (`role`)
 * and whether the site is site 2 (`home`); the runner asks every cell and lists those that differ.
 */
import { NetworkAnswer, NetworkUser, SignedIn, requestAt } from '../harness/network';
import { DOC_WORD, MatrixFixtures, PORTAL_SUBJECT, SUBJECT_THREE, SUBJECT_TWO } from './access-fixtures';

export const CALLERS = ['anonymous', 'customer2', 'customer3', 'agent2', 'manager3', 'boss'] as const;
export type Caller = (typeof CALLERS)[number];

export const SITES = ['main', 'two', 'three', 'mapped', 'archived'] as const;
export type SiteName = (typeof SITES)[number];
export const BLOG_IDS: Record<SiteName, number> = { main: 1, two: 2, three: 3, mapped: 4, archived: 5 };

export type Role = 'anonymous' | 'customer' | 'agent' | 'manager' | 'super';

/** The network's members (as built) and super admin: agent2 is site 2's agent and a subscriber on site 3. */
export const MEMBERS: NetworkUser[] = [
  { login: 'boss', roles: { 1: 'administrator' } },
  { login: 'agent2', roles: { 2: 'support_agent', 3: 'subscriber' } },
  { login: 'customer2', roles: { 2: 'subscriber' } },
  { login: 'customer3', roles: { 3: 'subscriber' } },
  { login: 'manager3', roles: { 3: 'support_manager' } },
];
export const SUPER_ADMINS = ['boss'];

/** What `caller` may do on `site`: their role's rights there. */
export function roleOn(caller: Caller, site: SiteName): Role {
  if (caller === 'anonymous') return 'anonymous';
  if (caller === 'boss') return 'super';
  if (caller === 'agent2' && site === 'two') return 'agent';
  if (caller === 'manager3' && site === 'three') return 'manager';
  return 'customer';
}

export interface Cell {
  caller: Caller;
  site: SiteName;
  role: Role;
  /** The site is site 2, where the fixtures are. */
  home: boolean;
}

export interface Expected {
  status: number;
  /** The error code, when one is worth naming. */
  code?: string;
  /** What the answer must show: a complaint, or nothing when it does. */
  shows?: (answer: NetworkAnswer) => string | undefined;
}

export interface Ask {
  method?: string;
  /** Relative to the site's address: `/wp-json/…`, `/wp-admin/admin-ajax.php`. */
  path: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
}

export interface Row {
  name: string;
  /**
   * The route names its blog by itself (a mailbox's route key): site 2 serves it at every address of
   * the network, an archived one's included (docs/multisite.md, "Mail on a network").
   */
  servedByItsBlog?: true;
  ask(f: MatrixFixtures, signed: SignedIn | null): Ask | Promise<Ask>;
  expect(cell: Cell, f: MatrixFixtures): Expected;
}

const S = '/wp-json/support/v1';
const AJAX = '/wp-admin/admin-ajax.php';

// Rules that many rows share, in the order WordPress's REST server applies them.
const signedIn = (then: (cell: Cell) => Expected) => (cell: Cell): Expected => (cell.role === 'anonymous' ? { status: 401 } : then(cell));
const isAgent = (role: Role) => role === 'agent' || role === 'manager' || role === 'super';
const isManager = (role: Role) => role === 'manager' || role === 'super';
const agentsOnly = (then: (cell: Cell) => Expected) => signedIn((cell) => (isAgent(cell.role) ? then(cell) : { status: 403 }));
const managersOnly = (then: (cell: Cell) => Expected) => signedIn((cell) => (isManager(cell.role) ? then(cell) : { status: 403 }));
/** Site 2's thing by its ID or key: not there on any other site. */
const onTwo = (code: string, then: (cell: Cell) => Expected) => (cell: Cell): Expected => (cell.home ? then(cell) : { status: 404, code });
/** Who sees customer2's ticket on site 2: customer2 and the agents of site 2. */
const seesTicketTwo = (cell: Cell) => isAgent(cell.role) || cell.caller === 'customer2';

function json(answer: NetworkAnswer): any {
  try {
    return JSON.parse(answer.text);
  } catch {
    return undefined;
  }
}

/** The subjects of a ticket list, sorted. */
const subjectsOf = (answer: NetworkAnswer) => ((json(answer) ?? []) as Array<{ subject: string }>).map((t) => t.subject).sort();

function sameList(actual: string[], wanted: string[]): string | undefined {
  const a = JSON.stringify(actual);
  const w = JSON.stringify([...wanted].sort());
  return a === w ? undefined : `shows ${a}, not ${w}`;
}

/** The tickets each caller lists on a site: all of the site's for its agents, their own for a customer. */
function ticketsListed(cell: Cell): string[] {
  const onSite: Record<string, Array<[string, Caller]>> = {
    two: [[SUBJECT_TWO, 'customer2'], [PORTAL_SUBJECT, 'customer2']],
    three: [[SUBJECT_THREE, 'customer3']],
  };
  return (onSite[cell.site] ?? []).filter(([, owner]) => isAgent(cell.role) || owner === cell.caller).map(([subject]) => subject);
}

/** A version no ticket has: every change sent with it is refused as stale. */
const STALE_VERSION = 999_999;

export const ROWS: Row[] = [
  {
    name: 'GET wp/v2/users/me',
    ask: () => ({ path: '/wp-json/wp/v2/users/me' }),
    expect: signedIn(() => ({ status: 200 })),
  },
  // Tickets (contract 4, "Tickets"): signed in; agents see every ticket of the site, customers their own.
  {
    name: 'GET /tickets',
    ask: () => ({ path: `${S}/tickets` }),
    expect: signedIn((cell) => ({ status: 200, shows: (a) => sameList(subjectsOf(a), ticketsListed(cell)) })),
  },
  {
    // WP: the REST server checks the args before the permission: 400 to everyone, anonymous included.
    name: 'POST /tickets (no subject)',
    ask: () => ({ method: 'POST', path: `${S}/tickets`, json: { body: 'no subject' } }),
    expect: () => ({ status: 400, code: 'rest_missing_callback_param' }),
  },
  {
    name: 'GET /tickets/<id of two>',
    ask: (f) => ({ path: `${S}/tickets/${f.ticket}` }),
    expect: signedIn(onTwo('svc_ticket_not_found', (cell) => (seesTicketTwo(cell)
      ? { status: 200, shows: (a) => (json(a)?.subject === SUBJECT_TWO ? undefined : 'not the ticket of site 2') }
      : { status: 404 }))),
  },
  {
    name: 'PATCH /tickets/<id of two> (stale version)',
    ask: (f) => ({ method: 'PATCH', path: `${S}/tickets/${f.ticket}`, json: { status: 'resolved', version: STALE_VERSION } }),
    expect: signedIn(onTwo('svc_ticket_not_found', (cell) => (seesTicketTwo(cell) ? { status: 409 } : { status: 404 }))),
  },
  {
    name: 'POST /tickets/<id of two>/messages (stale version)',
    ask: (f) => ({ method: 'POST', path: `${S}/tickets/${f.ticket}/messages`, json: { body: 'More', version: STALE_VERSION } }),
    expect: signedIn(onTwo('svc_ticket_not_found', (cell) => (seesTicketTwo(cell) ? { status: 409 } : { status: 404 }))),
  },
  {
    name: 'GET /tickets/<id of two>/attachments/<file>',
    ask: (f) => ({ path: `${S}/tickets/${f.ticket}/attachments/${f.file}` }),
    expect: (cell, f) => signedIn(onTwo('svc_ticket_not_found', (c) => (seesTicketTwo(c)
      ? { status: 200, shows: (a) => (a.text === f.fileBytes ? undefined : 'not the file of site 2') }
      : { status: 404 })))(cell),
  },
  {
    name: 'PATCH /tickets/<id of two>/deliveries/<delivery> (stale attempts)',
    ask: (f) => ({ method: 'PATCH', path: `${S}/tickets/${f.ticket}/deliveries/${f.delivery}`, json: { action: 'retry', attempts: 99 } }),
    expect: agentsOnly(onTwo('svc_delivery_not_found', () => ({ status: 409 }))),
  },
  // Incoming mail: the mailbox's own credentials; a user's cookie counts for nothing; the key names the blog.
  {
    name: 'GET /webhooks/inbound/<key of two> (token)',
    servedByItsBlog: true,
    ask: (f) => ({ path: `${S}/webhooks/inbound/${f.mailbox.routeKey}`, headers: { 'x-svc-token': f.mailbox.token } }),
    expect: onTwo('svc_mailbox_not_found', () => ({ status: 200, shows: (a) => (json(a)?.address === 'support@two.test' ? undefined : 'not the mailbox of site 2') })),
  },
  {
    name: 'POST /webhooks/inbound/<key of two> (wrong token)',
    servedByItsBlog: true,
    ask: (f) => ({ method: 'POST', path: `${S}/webhooks/inbound/${f.mailbox.routeKey}`, headers: { 'x-svc-token': 'wrong', 'content-type': 'message/rfc822' }, json: undefined }),
    expect: onTwo('svc_mailbox_not_found', () => ({ status: 401 })),
  },
  {
    name: 'POST /webhooks/relay/<key of two> (unsigned)',
    servedByItsBlog: true,
    ask: (f) => ({ method: 'POST', path: `${S}/webhooks/relay/${f.mailbox.routeKey}`, headers: { 'content-type': 'message/rfc822' } }),
    expect: onTwo('svc_mailbox_not_found', () => ({ status: 401 })),
  },
  {
    name: 'GET /mail/admin/ignored',
    ask: () => ({ path: `${S}/mail/admin/ignored` }),
    expect: agentsOnly(() => ({ status: 200 })),
  },
  {
    name: 'POST /mail/admin/ignored/<unknown receipt>/ticket',
    ask: () => ({ method: 'POST', path: `${S}/mail/admin/ignored/${'0'.repeat(32)}/ticket` }),
    expect: agentsOnly(() => ({ status: 404 })),
  },
  // Connected sites and their portal: the site-id of site 2 names no site elsewhere.
  {
    name: 'POST /sites/<site of two>/tickets (wrong key)',
    ask: (f) => ({ method: 'POST', path: `${S}/sites/${f.connected.siteId}/tickets`, headers: { 'x-svc-key': 'wrong' }, json: { email: 'a@b.test', name: 'A', subject: 'S', message: 'M' } }),
    expect: onTwo('svc_site_not_found', () => ({ status: 401 })),
  },
  {
    name: 'GET /sites/<site of two>/portal/config',
    ask: (f) => ({ path: `${S}/sites/${f.connected.siteId}/portal/config` }),
    expect: onTwo('svc_site_not_found', () => ({ status: 200, shows: (a) => (json(a)?.site_name === 'Shop of two' ? undefined : 'not the portal of site 2') })),
  },
  {
    name: 'POST /sites/<site of two>/portal/code (bad address)',
    ask: (f) => ({ method: 'POST', path: `${S}/sites/${f.connected.siteId}/portal/code`, json: { email: 'not an address' } }),
    expect: onTwo('svc_site_not_found', () => ({ status: 400 })),
  },
  {
    name: 'POST /sites/<site of two>/portal/session (wrong code)',
    ask: (f) => ({ method: 'POST', path: `${S}/sites/${f.connected.siteId}/portal/session`, json: { email: 'customer2@example.test', code: '000000' } }),
    expect: onTwo('svc_site_not_found', () => ({ status: 400 })),
  },
  {
    name: 'DELETE /sites/<site of two>/portal/session (wrong token)',
    ask: (f) => ({ method: 'DELETE', path: `${S}/sites/${f.connected.siteId}/portal/session`, headers: { 'x-svc-portal': 'wrong' } }),
    expect: onTwo('svc_site_not_found', () => ({ status: 401 })),
  },
  {
    name: 'GET /sites/<site of two>/portal/tickets (session)',
    ask: (f) => ({ path: `${S}/sites/${f.connected.siteId}/portal/tickets`, headers: { 'x-svc-portal': f.connected.portalToken } }),
    expect: onTwo('svc_site_not_found', () => ({ status: 200, shows: (a) => sameList(subjectsOf(a), [PORTAL_SUBJECT]) })),
  },
  {
    name: 'POST /sites/<site of two>/portal/tickets (session, no subject)',
    ask: (f) => ({ method: 'POST', path: `${S}/sites/${f.connected.siteId}/portal/tickets`, headers: { 'x-svc-portal': f.connected.portalToken }, json: { message: 'M' } }),
    expect: onTwo('svc_site_not_found', () => ({ status: 400 })),
  },
  {
    name: 'GET /sites/<site of two>/portal/tickets/<portal ticket>',
    ask: (f) => ({ path: `${S}/sites/${f.connected.siteId}/portal/tickets/${f.portalTicket}`, headers: { 'x-svc-portal': f.connected.portalToken } }),
    expect: onTwo('svc_site_not_found', () => ({ status: 200, shows: (a) => (json(a)?.subject === PORTAL_SUBJECT ? undefined : 'not the portal ticket') })),
  },
  {
    name: 'PATCH /sites/<site of two>/portal/tickets/<portal ticket> (stale version)',
    ask: (f) => ({ method: 'PATCH', path: `${S}/sites/${f.connected.siteId}/portal/tickets/${f.portalTicket}`, headers: { 'x-svc-portal': f.connected.portalToken }, json: { status: 'resolved', version: STALE_VERSION } }),
    expect: onTwo('svc_site_not_found', () => ({ status: 409 })),
  },
  {
    name: 'POST /sites/<site of two>/portal/tickets/<portal ticket>/messages (stale version)',
    ask: (f) => ({ method: 'POST', path: `${S}/sites/${f.connected.siteId}/portal/tickets/${f.portalTicket}/messages`, headers: { 'x-svc-portal': f.connected.portalToken }, json: { message: 'More', version: STALE_VERSION } }),
    expect: onTwo('svc_site_not_found', () => ({ status: 409 })),
  },
  {
    name: 'GET /sites/<site of two>/portal/tickets/<ticket of two>/attachments/<file> (not a portal ticket)',
    ask: (f) => ({ path: `${S}/sites/${f.connected.siteId}/portal/tickets/${f.ticket}/attachments/${f.file}`, headers: { 'x-svc-portal': f.connected.portalToken } }),
    expect: onTwo('svc_site_not_found', () => ({ status: 404 })),
  },
  // Docs and changelogs: public, each site its own.
  {
    name: 'GET /docs/search (a word of a doc of two)',
    ask: () => ({ path: `${S}/docs/search?q=${DOC_WORD}` }),
    expect: (cell) => ({ status: 200, shows: (a) => sameList(((json(a) ?? []) as Array<{ title: string }>).map((d) => d.title), cell.home ? ['Feeding birds'] : []) }),
  },
  {
    name: 'POST /docs/<doc of two>/feedback',
    ask: (f) => ({ method: 'POST', path: `${S}/docs/${f.doc}/feedback`, json: { helpful: true } }),
    expect: onTwo('svc_doc_not_found', () => ({ status: 200 })),
  },
  {
    name: 'GET /changelogs',
    ask: () => ({ path: `${S}/changelogs` }),
    expect: (cell) => ({ status: 200, shows: (a) => sameList(((json(a) ?? []) as Array<{ slug: string }>).map((p) => p.slug), cell.home ? ['two-app'] : []) }),
  },
  {
    name: 'GET /changelogs/<product of two>',
    ask: (f) => ({ path: `${S}/changelogs/${f.product}` }),
    expect: onTwo('svc_changelog_not_found', () => ({ status: 200 })),
  },
  {
    name: 'POST /changelogs/admin/parse',
    ask: () => ({ method: 'POST', path: `${S}/changelogs/admin/parse`, json: { text: '## 1.0.0\n- First' } }),
    expect: managersOnly(() => ({ status: 200 })),
  },
  {
    name: 'POST /changelogs/admin/probe (not a web address)',
    ask: () => ({ method: 'POST', path: `${S}/changelogs/admin/probe`, json: { url: 'ftp://two.test/changelog' } }),
    expect: managersOnly(() => ({ status: 400 })),
  },
  {
    name: 'POST /changelogs/admin/<product of two>/sync (no source)',
    ask: (f) => ({ method: 'POST', path: `${S}/changelogs/admin/${f.productId}/sync` }),
    expect: onTwo('rest_post_invalid_id', managersOnly(() => ({ status: 400, code: 'svc_changelog_no_source' }))),
  },
  // Chat: public routes answer the same to everyone; a conversation is its site's.
  {
    name: 'GET /chat/config',
    ask: () => ({ path: `${S}/chat/config` }),
    expect: () => ({ status: 200 }),
  },
  {
    name: 'POST /chat/messages (chat off)',
    ask: (f) => ({ method: 'POST', path: `${S}/chat/messages`, json: { message: 'Hello', thread: f.chat.uuid, token: f.chat.token } }),
    expect: () => ({ status: 403, code: 'svc_chat_disabled' }),
  },
  {
    name: 'GET /chat/threads/<conversation of two>',
    ask: (f) => ({ path: `${S}/chat/threads/${f.chat.uuid}`, headers: { 'x-chat-token': f.chat.token } }),
    expect: onTwo('svc_chat_thread_not_found', () => ({ status: 200 })),
  },
  {
    name: 'POST /chat/handoff (conversation of two, handoff off)',
    ask: (f) => ({ method: 'POST', path: `${S}/chat/handoff`, json: { thread: f.chat.uuid, token: f.chat.token, email: 'a@b.test' } }),
    expect: () => ({ status: 403 }),
  },
  {
    name: 'POST /chat/admin/test',
    ask: () => ({ method: 'POST', path: `${S}/chat/admin/test` }),
    expect: managersOnly(() => ({ status: 200 })),
  },
  {
    name: 'POST /chat/admin/learn',
    ask: () => ({ method: 'POST', path: `${S}/chat/admin/learn` }),
    expect: managersOnly(() => ({ status: 200 })),
  },
  {
    name: 'GET /chat/admin/learning',
    ask: () => ({ path: `${S}/chat/admin/learning` }),
    expect: agentsOnly(() => ({ status: 200 })),
  },
  // The form service: `edit_forms` (administrators, and a super admin everywhere); submissions from anyone.
  {
    name: 'GET frm/forms',
    ask: () => ({ path: '/wp-json/frm/forms' }),
    expect: signedIn((cell) => (cell.role === 'super'
      ? { status: 200, shows: (a) => sameList(((json(a) ?? []) as Array<{ title: string }>).map((x) => x.title), cell.home ? ['Contact two'] : []) }
      : { status: 403 })),
  },
  {
    name: 'admin-ajax frm_form_submit (form of two)',
    ask: (f) => ({ method: 'POST', path: AJAX, form: { action: 'frm_form_submit', _frm_form_id: String(f.form), [`_frm_h${f.form}`]: '', name: 'Bo', email: 'bo@example.test', message: 'Hi' } }),
    expect: (cell) => (cell.home
      ? { status: 200, shows: (a) => (json(a)?.message?.type === 'success' ? undefined : 'not a success') }
      : { status: 404, shows: (a) => (json(a)?.message?.text === 'This form is not available.' ? undefined : 'not the form service\'s error') }),
  },
  {
    name: 'admin-ajax frm_admin_action list_submissions (form of two)',
    ask: async (f, signed) => ({
      method: 'POST', path: AJAX,
      form: { action: 'frm_admin_action', _frm_admin_action: 'list_submissions', form_id: String(f.form), _ajax_nonce: signed ? await signed.nonceFor('frm_admin_action') : '' },
    }),
    expect: (cell, f) => {
      if (cell.role === 'anonymous') return { status: 400, shows: (a) => (a.text === '0' ? undefined : `answered ${a.text}`) };
      if (cell.role !== 'super') return { status: 403 };
      if (!cell.home) return { status: 404 };
      return { status: 200, shows: (a) => (JSON.stringify(json(a)?.data?.submissions ?? []).includes(f.submitted) ? undefined : 'not the submissions of site 2') };
    },
  },
];

/** Where each site of the network answers: its Host and the path before its URLs. */
export type SiteAddress = Record<SiteName, { host: string; path: string }>;

export interface MatrixRun {
  url: string;
  addresses: SiteAddress;
  fixtures: MatrixFixtures;
  signedIn: Record<Caller, SignedIn | null>;
}

/** What every caller gets from `row` on every site, as a list of the cells that differ from the rule. */
export async function cellsThatDiffer(run: MatrixRun, row: Row): Promise<string[]> {
  const differ: string[] = [];
  for (const site of SITES) {
    for (const caller of CALLERS) {
      const servedBy = row.servedByItsBlog ? 'two' : site;
      const cell: Cell = { caller, site: servedBy, role: roleOn(caller, servedBy), home: servedBy === 'two' };
      const wanted: Expected = servedBy === 'archived' && caller !== 'boss' ? { status: 410 } : row.expect(cell, run.fixtures);
      const answer = await send(run, site, await row.ask(run.fixtures, run.signedIn[caller]), run.signedIn[caller]);
      const complaint = judge(answer, wanted);
      if (complaint) differ.push(`${site} / ${caller} (${cell.role}): ${complaint}`);
    }
  }
  return differ;
}

function judge(answer: NetworkAnswer, wanted: Expected): string | undefined {
  const body = answer.text.slice(0, 200);
  if (answer.status !== wanted.status) return `${answer.status}, not ${wanted.status}: ${body}`;
  if (wanted.code && json(answer)?.code !== wanted.code) return `code ${json(answer)?.code}, not ${wanted.code}: ${body}`;
  return wanted.shows?.(answer);
}

/** The request as the caller's browser sends it: the cookie always, the REST nonce to the REST API. */
function send(run: MatrixRun, site: SiteName, ask: Ask, signed: SignedIn | null): Promise<NetworkAnswer> {
  const { host, path } = run.addresses[site];
  const headers: Record<string, string> = { accept: 'application/json', ...ask.headers };
  if (signed) {
    headers.cookie = signed.cookie;
    if (ask.path.startsWith('/wp-json/')) headers['x-wp-nonce'] = signed.nonce;
  }
  let body: string | undefined;
  if (ask.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(ask.json);
  } else if (ask.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(ask.form).toString();
  } else if (ask.method && ask.method !== 'GET') {
    body = '';
  }
  return requestAt(run.url, host, { method: ask.method ?? 'GET', path: `${path}${ask.path}`, headers, body });
}
