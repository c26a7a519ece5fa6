/*
 * Understudy support desk: the customer portal a connected site embeds (plain ES2017, no build step,
 * no dependencies). A page shows it with one container and one tag:
 *
 *   <div data-svc-portal data-site="SITE-ID"></div>
 *   <script src="https://desk.example/wp-content/plugins/svc/assets/js/portal.js" async></script>
 *
 * `data-svc-contact` instead of `data-svc-portal` shows the contact form alone (no sign-in).
 * `svc_portal_vars.api_root`, localized by the server on this file's first line, is the support/v1
 * REST root: `…/wp-json/support/v1/` or, without pretty permalinks, `…/?rest_route=/support/v1/`.
 *
 * The portal lives in an open shadow root of the container (the page's CSS and its own stay apart),
 * styled through CSS custom properties the site may set on the container; its words come from
 * `window.svc_strings.portal` (docs/portal.md, "Look and words"). Text is never inserted as HTML:
 * every node is made with createElement and filled with textContent. The session token is kept in
 * sessionStorage (this tab only) and sent as X-Svc-Portal, never as a cookie. docs/portal.md,
 * "Embedding the portal".
 */
(function () {
  'use strict';

  var vars = window.svc_portal_vars || {};
  var API_ROOT = String(vars.api_root || '/wp-json/support/v1/');
  var PER_PAGE = 10;
  var LOCALE = document.documentElement.lang || navigator.language || 'en';
  var instances = 0;

  /* The portal's own words; a site translates them with window.svc_strings = {portal: {...}} before this script. */
  var STRINGS = Object.assign({
    network_error: 'The support desk could not be reached. Check your connection and try again.',
    server_error: 'The support desk answered with an error ({status}).',
    retry: 'Try again',
    loading: 'Loading…',
    status_open: 'Open',
    status_waiting: 'Waiting for your reply',
    status_resolved: 'Resolved',
    unavailable: 'Support is not available',
    unavailable_text: 'The support portal could not be loaded.',
    sign_in_title: 'Sign in to {site} support',
    sign_in_text: 'Enter your email address and we will email you a 6-digit sign-in code.',
    email: 'Email address',
    send_code: 'Email me a code',
    contact_instead: 'Contact us without signing in',
    code_title: 'Enter your code',
    code_text: 'We sent a 6-digit code to {email}. It is valid for {minutes}.',
    code_sent: 'We sent a sign-in code to {email}.',
    code: 'Sign-in code',
    sign_in: 'Sign in',
    new_code: 'Send a new code',
    other_email: 'Use another email address',
    signed_in: 'You are signed in as {email}.',
    signed_out: 'You are signed out.',
    session_ended: 'Your session has ended. Please sign in again.',
    please_sign_in: 'Please sign in.',
    account: 'Signed in as {email}.',
    sign_out: 'Sign out',
    tickets_title: 'Your tickets',
    new_ticket: 'New ticket',
    no_tickets: 'You have no tickets on this site yet.',
    no_tickets_hint: 'When you write to us, your conversation shows up here.',
    newer: 'Newer tickets',
    older: 'Older tickets',
    ticket_meta: '#{id}',
    updated: 'updated {time}',
    new_reply: 'New reply',
    back: 'Back to your tickets',
    ticket_number: 'Ticket #{id}',
    you: 'You',
    support: 'Support',
    support_team: 'Support team',
    download: 'Download {file}',
    downloading: 'Downloading {file}.',
    your_reply: 'Your reply',
    send_reply: 'Send reply',
    reply_sent: 'Your reply was sent.',
    resolve: 'Mark as resolved',
    reopen: 'Reopen ticket',
    resolved_done: 'The ticket is marked as resolved.',
    reopened_done: 'The ticket is open again.',
    conflict_reply: 'This ticket changed while you were writing, so it was reloaded. Your reply was not sent yet: check it and send it again.',
    conflict_status: 'This ticket changed since you opened it, so it was reloaded. Please try again.',
    subject: 'Subject',
    message: 'Message',
    open_ticket: 'Open ticket',
    ticket_opened: 'Your ticket was opened.',
    cancel: 'Cancel',
    contact_title: 'Contact us',
    contact_closed: 'This site is not taking new messages at the moment.',
    your_name: 'Your name',
    send_message: 'Send message',
    back_to_sign_in: 'Back to sign in',
    sent_title: 'Message sent',
    sent_text: 'Thank you. Your ticket number is #{id}; we will answer by email at {email}.',
    sent_status: 'Your message was sent.',
    send_another: 'Send another message',
    count: '{n} of {max} characters',
    required: 'Please fill in this field.',
    too_long: 'Please shorten this to {max} characters (it has {n}).',
    check_field: 'Please check this field.',
    too_many: 'Too many attempts.',
    try_later: 'Please try again later.',
    try_in: 'Please try again in {time}.',
    second_one: '{n} second', second_other: '{n} seconds',
    minute_one: '{n} minute', minute_other: '{n} minutes',
  }, ((window.svc_strings || {}).portal) || {});

  function t(key, values) {
    return String(STRINGS[key]).replace(/\{(\w+)\}/g, function (all, name) { return values && name in values ? String(values[name]) : all; });
  }

  /* "3 minutes" in the page's language: the plural category picks the string (`one`, else `other`). */
  function count(unit, n) {
    var category = new Intl.PluralRules(LOCALE).select(n);
    return t(STRINGS[unit + '_' + category] !== undefined ? unit + '_' + category : unit + '_other', { n: n });
  }

  /* ---- HTTP ---- */

  /* The REST root may already carry a query (`?rest_route=`): further arguments are joined with `&`. */
  function apiUrl(path, query) {
    var url = API_ROOT + path;
    var args = Object.keys(query || {}).map(function (key) {
      return encodeURIComponent(key) + '=' + encodeURIComponent(query[key]);
    }).join('&');
    if (!args) return url;
    return url + (url.indexOf('?') === -1 ? '?' : '&') + args;
  }

  function failure(status, code, message, data, retryAfter) {
    return { status: status, code: code, message: message, data: data || {}, retryAfter: retryAfter };
  }

  function parseJson(text) {
    try {
      return JSON.parse(text);
    } catch (e) {
      return null;
    }
  }

  /* Resolves with {body, headers}, or rejects with a failure(): the server's WordPress error, or a network one. */
  async function call(method, path, options) {
    var opts = options || {};
    var headers = { Accept: 'application/json' };
    var init = { method: method, headers: headers, credentials: 'omit', mode: 'cors' };
    if (opts.token) headers['X-Svc-Portal'] = opts.token;
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(opts.body);
    }
    var res;
    try {
      res = await fetch(apiUrl(path, opts.query), init);
    } catch (e) {
      throw failure(0, 'network_error', t('network_error'));
    }
    if (res.ok && opts.raw) return { response: res };
    var body = parseJson(await res.text().catch(function () { return ''; }));
    if (res.ok) return { body: body, headers: res.headers };
    var error = body && typeof body === 'object' ? body : {};
    var data = error.data && typeof error.data === 'object' ? error.data : {};
    /* Retry-After is not a CORS-readable header unless exposed; the body's data.retry_after always is. */
    var retryAfter = Number(data.retry_after || res.headers.get('Retry-After') || 0);
    var message = typeof error.message === 'string' && error.message ? error.message : t('server_error', { status: res.status });
    throw failure(res.status, String(error.code || 'http_' + res.status), message, data, retryAfter);
  }

  /* ---- DOM (createElement and textContent only) ---- */

  /* A translated sentence with a node where its placeholder is: ["updated ", <time>]. */
  function around(text, placeholder, node) {
    var at = text.indexOf(placeholder);
    if (at === -1) return [text, ' ', node];
    return [text.slice(0, at), node, text.slice(at + placeholder.length)].filter(function (part) { return part !== ''; });
  }

  function el(tag, props, children) {
    var node = document.createElement(tag);
    var p = props || {};
    Object.keys(p).forEach(function (key) {
      var value = p[key];
      if (value === undefined || value === null || value === false) return;
      if (key === 'text') node.textContent = String(value);
      else if (key === 'className') node.className = value;
      else if (key === 'onClick') node.addEventListener('click', value);
      else if (key === 'onSubmit') node.addEventListener('submit', value);
      else if (key === 'value') node.value = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined || child === false) return;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  function codePoints(text) {
    return Array.from(text).length;
  }

  function waitText(seconds) {
    if (!(seconds > 0)) return t('try_later');
    if (seconds < 60) return t('try_in', { time: count('second', Math.ceil(seconds)) });
    return t('try_in', { time: count('minute', Math.ceil(seconds / 60)) });
  }

  /* What the server is told of the page: http(s) only, within the 2,048 characters it accepts. */
  function pageUrl() {
    var loc = window.location;
    if (loc.protocol !== 'http:' && loc.protocol !== 'https:') return undefined;
    if (loc.href.length <= 2048) return loc.href;
    var short = loc.origin + loc.pathname;
    return short.length <= 2048 ? short : undefined;
  }

  /* sessionStorage may be refused (privacy settings, sandboxed frames): the value then lives in memory. */
  function tabStore(key) {
    var memory = null;
    return {
      get: function () {
        try {
          return parseJson(window.sessionStorage.getItem(key) || 'null') || memory;
        } catch (e) {
          return memory;
        }
      },
      set: function (value) {
        memory = value;
        try {
          if (value) window.sessionStorage.setItem(key, JSON.stringify(value));
          else window.sessionStorage.removeItem(key);
        } catch (e) { /* kept in memory */ }
      },
    };
  }

  /* ---- times: ticket dates are site-local (`YYYY-MM-DD HH:MM:SS` in config.time_zone) ---- */

  function zoneOffsetMinutes(zone, ms) {
    var sign = /^([+-])(\d\d):(\d\d)$/.exec(zone || '');
    if (sign) return (sign[1] === '-' ? -1 : 1) * (Number(sign[2]) * 60 + Number(sign[3]));
    try {
      var parts = {};
      new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
        .formatToParts(new Date(ms)).forEach(function (part) { parts[part.type] = Number(part.value); });
      return Math.round((Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - Math.floor(ms / 1000) * 1000) / 60000);
    } catch (e) {
      return 0;
    }
  }

  function siteDate(text, zone) {
    var m = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)/.exec(String(text || ''));
    if (!m) return null;
    var wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
    var guess = wall - zoneOffsetMinutes(zone, wall) * 60000;
    return new Date(wall - zoneOffsetMinutes(zone, guess) * 60000);
  }

  function relativeTime(date) {
    var seconds = Math.round((date.getTime() - Date.now()) / 1000);
    var steps = [[60, 'second'], [3600, 'minute'], [86400, 'hour'], [604800, 'day'], [2629800, 'week'], [31557600, 'month'], [Infinity, 'year']];
    var format = new Intl.RelativeTimeFormat(LOCALE, { numeric: 'auto', style: 'short' });
    if (Math.abs(seconds) < 45) return format.format(0, 'second');
    for (var i = 1; i < steps.length; i += 1) {
      if (Math.abs(seconds) < steps[i][0]) return format.format(Math.round(seconds / steps[i - 1][0]), steps[i][1]);
    }
    return format.format(Math.round(seconds / 31557600), 'year');
  }

  /* <time> with the relative local time, the full date on hover. */
  function timeNode(text, zone) {
    var date = siteDate(text, zone);
    if (!date) return el('span', { text: text });
    return el('time', { datetime: date.toISOString(), title: new Intl.DateTimeFormat(LOCALE, { dateStyle: 'full', timeStyle: 'short' }).format(date), text: relativeTime(date) });
  }

  /* ---- look ---- */

  var CSS = [
    ':host{all:initial;display:block;--svc-accent:#2271b1;--svc-on-accent:#fff;--svc-bg:#fff;--svc-text:#1d2327;--svc-muted:#50575e;--svc-border:#dcdcde;',
    '--svc-soft:#f0f2f4;--svc-error:#b32d2e;--svc-radius:16px;--svc-font:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}',
    '*,*::before,*::after{box-sizing:border-box}',
    '[hidden]{display:none!important}',
    '.portal{position:relative;max-width:760px;margin:0 auto;background:var(--svc-bg);color:var(--svc-text);font:15px/1.5 var(--svc-font);text-align:start;',
    'border:1px solid var(--svc-border);border-top:4px solid var(--svc-accent);border-radius:var(--svc-radius);box-shadow:0 4px 24px rgba(0,0,0,.06);overflow:hidden;overflow-wrap:anywhere}',
    '.progress{position:absolute;inset:0 0 auto;height:3px;background:var(--svc-accent);opacity:0;transform-origin:0 50%}',
    ':host([aria-busy="true"]) .progress{opacity:1;animation:svc-load 1.2s ease-in-out infinite}',
    '@keyframes svc-load{0%{transform:scaleX(.05)}50%{transform:scaleX(.7)}100%{transform:scaleX(1);opacity:.2}}',
    '@media (prefers-reduced-motion:reduce){:host([aria-busy="true"]) .progress{animation:none}}',
    '.svc-portal__view{padding:24px 28px 28px}',
    ':focus-visible{outline:3px solid var(--svc-accent);outline-offset:2px}',
    '.svc-portal__heading{margin:0 0 6px;font-size:22px;line-height:1.3}',
    '.svc-portal__heading:focus{outline:none}',
    '.svc-portal__heading:focus-visible{outline:3px solid var(--svc-accent)}',
    'p{margin:0 0 16px}',
    '.lede{color:var(--svc-muted)}',
    '.status-row{display:flex;align-items:center;gap:12px;margin:0 28px}',
    '.status-row:has(.svc-portal__status:empty){display:none}',
    '.svc-portal__status{flex:1;margin:16px 0 0;padding:10px 14px;border-radius:10px;background:#edf6ee;color:#1e5a2d}',
    '.svc-portal__status:empty{display:none}',
    '.svc-portal__status--error{background:#fcf0f1;color:var(--svc-error)}',
    'button{font:inherit;cursor:pointer}',
    'button:disabled{cursor:default;opacity:.6}',
    '.svc-portal__submit,.svc-portal__button{min-height:44px;padding:0 20px;border:1px solid var(--svc-accent);border-radius:10px;background:var(--svc-accent);color:var(--svc-on-accent);font-weight:600}',
    '.svc-portal__button{background:#fff;color:var(--svc-accent)}',
    '.svc-portal__link{padding:4px 0;border:0;background:none;color:#0a4b78;text-decoration:underline;text-underline-offset:3px}',
    '.retry{margin-top:16px}',
    '.topbar{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:8px;margin:0 0 16px;color:var(--svc-muted);font-size:14px}',
    '.svc-portal__form{display:flex;flex-direction:column;gap:16px;margin:20px 0 0}',
    '.svc-portal__field{display:flex;flex-direction:column;gap:6px}',
    'label{font-weight:600;font-size:14px}',
    'input,textarea{width:100%;min-width:0;padding:10px 12px;border:1px solid #8c8f94;border-radius:10px;font:inherit;color:inherit;background:#fff}',
    'textarea{resize:vertical;min-height:120px}',
    'input:focus-visible,textarea:focus-visible{outline:2px solid var(--svc-accent);outline-offset:0;border-color:var(--svc-accent)}',
    '[aria-invalid="true"]{border-color:var(--svc-error);box-shadow:0 0 0 1px var(--svc-error)}',
    '.svc-portal__hint,.svc-portal__count{margin:0;font-size:13px;color:var(--svc-muted)}',
    '.actions{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;margin:16px 0 0}',
    '.list-head{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:12px;margin:0 0 16px}',
    '.svc-portal__tickets{margin:0;padding:0;list-style:none;border:1px solid var(--svc-border);border-radius:12px}',
    '.svc-portal__ticket{position:relative;display:flex;flex-direction:column;gap:6px;padding:14px 16px}',
    '.svc-portal__ticket+.svc-portal__ticket{border-top:1px solid var(--svc-border)}',
    '.svc-portal__ticket:hover{background:#f6f7f7}',
    '.svc-portal__ticket-link{align-self:flex-start;padding:0;border:0;background:none;color:var(--svc-text);font-weight:600;font-size:16px;text-align:start}',
    '.svc-portal__ticket-link::after{content:"";position:absolute;inset:0}',
    '.svc-portal__ticket--unread .svc-portal__ticket-link::before{content:"";display:inline-block;width:9px;height:9px;margin-inline-end:8px;border-radius:50%;background:#d63638;vertical-align:middle}',
    '.svc-portal__meta{display:flex;flex-wrap:wrap;align-items:center;gap:4px 10px;color:var(--svc-muted);font-size:13px}',
    '.badge{display:inline-block;padding:2px 10px;border-radius:999px;font-size:12px;font-weight:600;line-height:1.6}',
    '.badge--open{background:#e5f0fa;color:#0a4b78}',
    '.badge--waiting{background:#fcf0e3;color:#7a4400}',
    '.badge--resolved{background:#e6f4ea;color:#1e6b34}',
    '.new{color:#b32d2e;font-weight:600}',
    '.empty{padding:32px 16px;border:1px dashed var(--svc-border);border-radius:12px;text-align:center;color:var(--svc-muted)}',
    '.empty strong{display:block;margin-bottom:4px;color:var(--svc-text);font-size:16px}',
    '.empty p{margin:0}',
    '.svc-portal__pages{display:flex;justify-content:space-between;gap:8px;margin:16px 0 0}',
    '.svc-portal__messages{display:flex;flex-direction:column;gap:18px;margin:24px 0;padding:0;list-style:none}',
    '.svc-portal__message{display:flex;gap:10px;align-items:flex-start;max-width:100%}',
    '.svc-portal__message--customer{flex-direction:row-reverse}',
    '.avatar{flex:none;display:flex;align-items:center;justify-content:center;width:34px;height:34px;border-radius:50%;background:var(--svc-text);color:#fff;font-weight:700;font-size:14px}',
    '.svc-portal__message--customer .avatar{background:var(--svc-accent);color:var(--svc-on-accent)}',
    '.stack{display:flex;flex-direction:column;gap:4px;min-width:0;max-width:min(80%,560px)}',
    '.svc-portal__message--customer .stack{align-items:flex-end}',
    '.bubble{padding:12px 16px;border-radius:18px;background:var(--svc-soft);min-width:0}',
    '.svc-portal__message--agent .bubble{border-start-start-radius:4px}',
    '.svc-portal__message--customer .bubble{background:var(--svc-accent);color:var(--svc-on-accent);border-start-end-radius:4px}',
    '.svc-portal__body{white-space:pre-wrap}',
    '.who{font-weight:600;color:var(--svc-text)}',
    '.svc-portal__files{display:flex;flex-wrap:wrap;gap:6px;margin:8px 0 0;padding:0;list-style:none}',
    '.file{padding:4px 12px;border:1px solid var(--svc-border);border-radius:999px;background:#fff;color:#0a4b78;font-size:13px}',
    '.reply-card{margin-top:8px;padding-top:20px;border-top:1px solid var(--svc-border)}',
    '@media (max-width:480px){.svc-portal__view{padding:18px 16px 20px}.status-row{margin:0 16px}.portal{border-radius:12px}.stack{max-width:86%}',
    '.svc-portal__message .avatar{width:28px;height:28px;font-size:12px}.svc-portal__submit,.svc-portal__button{width:100%}}',
  ].join('\n');

  function applyStyles(root) {
    if ('adoptedStyleSheets' in root && window.CSSStyleSheet && CSSStyleSheet.prototype.replaceSync) {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
    } else {
      root.appendChild(el('style', { text: CSS }));
    }
  }

  /* ---- one portal (or contact form) in one container: the context every view shares ---- */

  function createContext(container) {
    var siteId = String(container.getAttribute('data-site') || '');
    var root = container.shadowRoot || container.attachShadow({ mode: 'open' });
    var ctx = {
      container: container,
      root: root,
      siteId: siteId,
      sitePath: 'sites/' + encodeURIComponent(siteId) + '/',
      contactOnly: container.hasAttribute('data-svc-contact') && !container.hasAttribute('data-svc-portal'),
      prefix: 'svc-portal-' + (++instances) + '-',
      store: tabStore('svc_portal_session:' + siteId),
      config: null,
      busy: false,
    };
    ctx.seen = tabStore('svc_portal_seen:' + siteId);
    ctx.status = el('div', { className: 'svc-portal__status', 'aria-live': 'polite' });
    ctx.view = el('div', { className: 'svc-portal__view' });
    applyStyles(root);
    root.textContent = '';
    root.appendChild(el('div', { className: 'portal svc-portal' }, [
      el('div', { className: 'progress', 'aria-hidden': 'true' }),
      el('div', { className: 'status-row' }, [ctx.status]),
      ctx.view,
    ]));
    container.classList.add('svc-portal-host');
    return ctx;
  }

  function announce(ctx, text, isError) {
    ctx.status.textContent = text || '';
    ctx.status.className = 'svc-portal__status' + (text && isError ? ' svc-portal__status--error' : '');
  }

  /* Replaces the view; after a user's action focus goes to its heading (never on page load). */
  function show(ctx, nodes, options) {
    var o = options || {};
    ctx.view.textContent = '';
    nodes.forEach(function (node) { if (node) ctx.view.appendChild(node); });
    announce(ctx, o.message || '', o.error);
    var title = ctx.view.querySelector('h2');
    if (o.focus !== false && title) title.focus();
  }

  /* `dir`: `auto` for the customer's own words (a subject), which read in their own direction. */
  function heading(text, dir) {
    return el('h2', { className: 'svc-portal__heading', tabindex: '-1', dir: dir, text: text });
  }

  function setBusy(ctx, on) {
    ctx.busy = on;
    if (on) ctx.container.setAttribute('aria-busy', 'true');
    else ctx.container.removeAttribute('aria-busy');
    Array.prototype.forEach.call(ctx.root.querySelectorAll('button'), function (button) { button.disabled = on; });
  }

  /* Runs a user's action: one at a time, buttons disabled meanwhile, failures reported (with a retry when the desk was not reached). */
  async function act(ctx, work) {
    if (ctx.busy) return;
    var focused = ctx.root.activeElement;
    setBusy(ctx, true);
    try {
      await work();
    } catch (err) {
      report(ctx, err, function () { return act(ctx, work); });
    } finally {
      setBusy(ctx, false);
      if (!ctx.root.activeElement && focused && focused.isConnected) focused.focus();
    }
  }

  function report(ctx, err, retry) {
    if (err && err.handled) return;
    if (!err || typeof err.status !== 'number' || err.status === 0) {
      announce(ctx, t('network_error'), true);
      if (retry) offerRetry(ctx, retry);
      return;
    }
    if (err.status === 429) return announce(ctx, t('too_many') + ' ' + waitText(err.retryAfter), true);
    var names = invalidFieldNames(err);
    if (names.length && markInvalid(ctx, names, err.message)) return;
    announce(ctx, err.message, true);
  }

  /* A "Try again" button beside the error, gone once used or once the view changes. */
  function offerRetry(ctx, retry) {
    var row = ctx.status.parentNode;
    var old = row.querySelector('.retry');
    if (old) old.remove();
    var button = el('button', { type: 'button', className: 'svc-portal__button retry', text: t('retry'), onClick: function () { button.remove(); retry(); } });
    row.appendChild(button);
    var observer = new MutationObserver(function () { button.remove(); observer.disconnect(); });
    observer.observe(ctx.view, { childList: true });
  }

  /* ---- forms ---- */

  function field(ctx, name, label, input, extra) {
    var id = ctx.prefix + name;
    input.id = id;
    input.name = name;
    var describedBy = (extra || []).map(function (node) { return node.id; }).filter(Boolean).join(' ');
    if (describedBy) input.setAttribute('aria-describedby', describedBy);
    return el('div', { className: 'svc-portal__field' }, [el('label', { for: id, text: label }), input].concat(extra || []));
  }

  function textInput(ctx, name, label, attrs) {
    return field(ctx, name, label, el('input', Object.assign({ type: 'text', required: true }, attrs)));
  }

  /* The message box with the site's hint and a count against its limit (counted in characters, as the server does). */
  function messageBox(ctx, label, value) {
    var config = ctx.config;
    var limit = config && config.message_limit > 0 ? config.message_limit : 0;
    var hint = config && config.message_hint ? el('p', { id: ctx.prefix + 'message-hint', className: 'svc-portal__hint', text: config.message_hint }) : null;
    var counter = limit ? el('p', { id: ctx.prefix + 'message-count', className: 'svc-portal__count' }) : null;
    var textarea = el('textarea', { rows: '5', required: true, 'data-limit': limit || null });
    textarea.value = value || '';
    function update() {
      if (counter) counter.textContent = t('count', { n: codePoints(textarea.value), max: limit });
    }
    textarea.addEventListener('input', update);
    update();
    return field(ctx, 'message', label, textarea, [hint, counter].filter(Boolean));
  }

  function submitButton(text) {
    return el('button', { type: 'submit', className: 'svc-portal__submit', text: text });
  }

  function button(ctx, text, onClick, className) {
    return el('button', { type: 'button', className: className || 'svc-portal__button', text: text, onClick: function () { act(ctx, onClick); } });
  }

  function form(ctx, className, children, onSubmit) {
    return el('form', {
      className: 'svc-portal__form ' + className,
      novalidate: true,
      onSubmit: function (event) {
        event.preventDefault();
        var target = event.currentTarget;
        if (!validate(ctx, target)) return;
        act(ctx, function () { return onSubmit(values(target)); });
      },
    }, children);
  }

  function values(formNode) {
    var out = {};
    Array.prototype.forEach.call(formNode.elements, function (input) {
      if (input.name) out[input.name] = input.value;
    });
    return out;
  }

  function labelOf(ctx, input) {
    var label = input.id ? ctx.root.querySelector('label[for="' + input.id + '"]') : null;
    return label ? label.textContent : input.name;
  }

  function clearInvalid(ctx) {
    Array.prototype.forEach.call(ctx.view.querySelectorAll('[aria-invalid="true"]'), function (input) { input.removeAttribute('aria-invalid'); });
  }

  /* Checks the fields before sending; marks every invalid one and focuses the first, named in the status. */
  function validate(ctx, formNode) {
    clearInvalid(ctx);
    var first = null;
    var firstMessage = '';
    Array.prototype.forEach.call(formNode.elements, function (input) {
      if (!input.name || !input.willValidate) return;
      var limit = Number(input.getAttribute('data-limit') || 0);
      var message = '';
      if (input.required && !input.value.trim()) message = t('required');
      else if (limit && codePoints(input.value) > limit) message = t('too_long', { max: limit, n: codePoints(input.value) });
      else if (!input.checkValidity()) message = input.validationMessage || t('check_field');
      if (!message) return;
      input.setAttribute('aria-invalid', 'true');
      if (!first) {
        first = input;
        firstMessage = message;
      }
    });
    if (!first) return true;
    announce(ctx, labelOf(ctx, first) + ': ' + firstMessage, true);
    first.focus();
    return false;
  }

  /* The fields an error names: WordPress's argument errors, and the portal's own per-field ones. */
  function invalidFieldNames(err) {
    var params = err.data && err.data.params;
    if (err.code === 'rest_invalid_param' && params && typeof params === 'object') return Object.keys(params);
    if (err.code === 'rest_missing_callback_param' && Array.isArray(params)) return params;
    if (err.code === 'svc_message_too_long') return ['message'];
    if (err.code === 'svc_portal_invalid_code') return ['code'];
    return [];
  }

  function markInvalid(ctx, names, message) {
    clearInvalid(ctx);
    var inputs = Array.prototype.filter.call(ctx.view.querySelectorAll('input, textarea'), function (input) { return names.indexOf(input.name) !== -1; });
    if (!inputs.length) return false;
    inputs.forEach(function (input) { input.setAttribute('aria-invalid', 'true'); });
    announce(ctx, message, true);
    inputs[0].focus();
    return true;
  }

  /* ---- signed-in calls ---- */

  /* A call with the session token; a 401 means the session is gone: back to sign-in. */
  async function authed(ctx, method, path, options) {
    var current = ctx.store.get();
    if (!current) throw failure(401, 'svc_portal_session_invalid', t('please_sign_in'));
    try {
      return await call(method, ctx.sitePath + 'portal/' + path, Object.assign({ token: current.token }, options));
    } catch (err) {
      if (err.status === 401) {
        ctx.store.set(null);
        showSignIn(ctx, { message: t('session_ended'), error: true });
        throw { handled: true };
      }
      throw err;
    }
  }

  /* ---- sign-in ---- */

  function showLoading(ctx) {
    show(ctx, [el('p', { className: 'lede', role: 'status', text: t('loading') })], { focus: false });
  }

  function showUnavailable(ctx, err, options) {
    var retry = el('button', { type: 'button', className: 'svc-portal__button', text: t('retry'), onClick: function () { if (!ctx.busy) start(ctx, true); } });
    show(ctx, [
      heading(t('unavailable')),
      el('p', { className: 'lede', text: t('unavailable_text') }),
      retry,
    ], { message: err.message, error: true, focus: options.focus });
  }

  function showSignIn(ctx, options) {
    var contact = ctx.config.new_tickets
      ? el('p', { className: 'actions' }, [button(ctx, t('contact_instead'), function () { showContact(ctx); }, 'svc-portal__link')])
      : null;
    show(ctx, [
      heading(t('sign_in_title', { site: ctx.config.site_name })),
      el('p', { className: 'lede', text: t('sign_in_text') }),
      form(ctx, 'svc-portal__sign-in', [
        textInput(ctx, 'email', t('email'), { type: 'email', autocomplete: 'email', maxlength: '254' }),
        el('div', {}, [submitButton(t('send_code'))]),
      ], function (v) { return requestCode(ctx, v.email.trim()); }),
      contact,
    ], options);
  }

  async function requestCode(ctx, email) {
    var res = await call('POST', ctx.sitePath + 'portal/code', { body: { email: email } });
    showCode(ctx, email, res.body);
  }

  function showCode(ctx, email, sent) {
    var minutes = Math.round(((sent && sent.expires_in) || 600) / 60);
    show(ctx, [
      heading(t('code_title')),
      el('p', { className: 'lede', text: t('code_text', { email: email, minutes: count('minute', minutes) }) }),
      form(ctx, 'svc-portal__code', [
        textInput(ctx, 'code', t('code'), { inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}', maxlength: '6' }),
        el('div', {}, [submitButton(t('sign_in'))]),
      ], function (v) { return signIn(ctx, email, v.code.trim()); }),
      el('p', { className: 'actions' }, [
        button(ctx, t('new_code'), function () { return requestCode(ctx, email); }, 'svc-portal__link'),
        button(ctx, t('other_email'), function () { showSignIn(ctx); }, 'svc-portal__link'),
      ]),
    ], { message: t('code_sent', { email: email }) });
  }

  async function signIn(ctx, email, code) {
    var res = await call('POST', ctx.sitePath + 'portal/session', { body: { email: email, code: code } });
    ctx.store.set({ token: res.body.token, email: res.body.email });
    await showList(ctx, 1, { message: t('signed_in', { email: res.body.email }) });
  }

  async function signOut(ctx) {
    var current = ctx.store.get();
    ctx.store.set(null);
    if (current) {
      try {
        await call('DELETE', ctx.sitePath + 'portal/session', { token: current.token });
      } catch (e) { /* the token is forgotten here either way */ }
    }
    showSignIn(ctx, { message: t('signed_out') });
  }

  function accountBar(ctx) {
    return el('div', { className: 'topbar svc-portal__account' }, [
      el('span', { text: t('account', { email: ctx.store.get().email }) }),
      button(ctx, t('sign_out'), function () { return signOut(ctx); }, 'svc-portal__link'),
    ]);
  }

  /* ---- tickets ---- */

  function statusBadge(status) {
    var key = 'status_' + status;
    return el('span', { className: 'badge badge--' + status, text: STRINGS[key] !== undefined ? t(key) : String(status) });
  }

  /* Unread: changed since this tab last opened it, or waiting for the customer and never opened here. */
  function isUnread(ctx, ticket) {
    var seen = (ctx.seen.get() || {})[ticket.id];
    return seen ? ticket.updated_at > seen : ticket.status === 'waiting';
  }

  function markSeen(ctx, ticket) {
    var seen = ctx.seen.get() || {};
    seen[ticket.id] = ticket.updated_at;
    ctx.seen.set(seen);
  }

  async function showList(ctx, page, options) {
    var res = await authed(ctx, 'GET', 'tickets', { query: { page: page, per_page: PER_PAGE } });
    var tickets = Array.isArray(res.body) ? res.body : [];
    var pages = Number(res.headers.get('X-WP-TotalPages') || 1);
    var zone = ctx.config.time_zone;
    var items = tickets.map(function (ticket) {
      var unread = isUnread(ctx, ticket);
      return el('li', { className: 'svc-portal__ticket' + (unread ? ' svc-portal__ticket--unread' : '') }, [
        subjectLink(ctx, ticket),
        el('div', { className: 'svc-portal__meta' }, [
          statusBadge(ticket.status),
          unread ? el('span', { className: 'new', text: t('new_reply') }) : null,
          el('span', { text: t('ticket_meta', { id: ticket.id }) }),
          el('span', {}, around(t('updated'), '{time}', timeNode(ticket.updated_at, zone))),
        ]),
      ]);
    });
    show(ctx, [
      accountBar(ctx),
      el('div', { className: 'list-head' }, [
        heading(t('tickets_title')),
        ctx.config.new_tickets ? button(ctx, t('new_ticket'), function () { showNewTicket(ctx); }, 'svc-portal__submit') : null,
      ]),
      items.length ? el('ul', { className: 'svc-portal__tickets' }, items) : el('div', { className: 'empty' }, [
        el('strong', { text: t('no_tickets') }), el('p', { text: t('no_tickets_hint') }),
      ]),
      pages > 1 ? el('p', { className: 'svc-portal__pages' }, [
        page > 1 ? button(ctx, t('newer'), function () { return showList(ctx, page - 1); }) : el('span'),
        page < pages ? button(ctx, t('older'), function () { return showList(ctx, page + 1); }) : null,
      ]) : null,
    ], options);
  }

  /* The customer's subject reads in its own direction (dir=auto). */
  function subjectLink(ctx, ticket) {
    var link = button(ctx, ticket.subject, function () { return showTicket(ctx, ticket.id); }, 'svc-portal__ticket-link');
    link.dir = 'auto';
    return link;
  }

  async function showTicket(ctx, id, options) {
    var res = await authed(ctx, 'GET', 'tickets/' + encodeURIComponent(id));
    renderTicket(ctx, res.body, options);
  }

  function renderTicket(ctx, ticket, options) {
    var o = options || {};
    markSeen(ctx, ticket);
    show(ctx, [
      el('p', {}, [button(ctx, '← ' + t('back'), function () { return showList(ctx, 1); }, 'svc-portal__link')]),
      heading(ticket.subject, 'auto'),
      el('div', { className: 'svc-portal__meta' }, [statusBadge(ticket.status), el('span', { text: t('ticket_number', { id: ticket.id }) })]),
      el('ol', { className: 'svc-portal__messages' }, (ticket.messages || []).map(function (message) { return messageItem(ctx, ticket, message); })),
      statusButtons(ctx, ticket),
      el('div', { className: 'reply-card' }, [form(ctx, 'svc-portal__reply', [
        messageBox(ctx, t('your_reply'), o.draft),
        el('div', {}, [submitButton(t('send_reply'))]),
      ], function (v) { return reply(ctx, ticket, v.message); })]),
    ], o);
  }

  function initials(name) {
    return name.split(/\s+/).filter(Boolean).slice(0, 2).map(function (part) { return Array.from(part)[0].toUpperCase(); }).join('') || '?';
  }

  function messageItem(ctx, ticket, message) {
    var author = message.author || {};
    var agent = author.kind === 'agent';
    var name = author.name || (agent ? t('support') : t('you'));
    var files = (message.attachments || []).map(function (file) {
      return el('li', {}, [button(ctx, t('download', { file: file.filename }), function () { return download(ctx, ticket.id, file); }, 'file')]);
    });
    return el('li', { className: 'svc-portal__message svc-portal__message--' + (agent ? 'agent' : 'customer') }, [
      el('span', { className: 'avatar', 'aria-hidden': 'true', text: initials(name) }),
      el('div', { className: 'stack' }, [
        el('div', { className: 'svc-portal__meta' }, [
          el('span', { className: 'who', text: name }),
          agent ? el('span', { text: t('support_team') }) : null,
          timeNode(message.created_at, ctx.config.time_zone),
        ]),
        el('div', { className: 'bubble' }, [
          el('div', { className: 'svc-portal__body', dir: 'auto', text: message.body }),
          files.length ? el('ul', { className: 'svc-portal__files' }, files) : null,
        ]),
      ]),
    ]);
  }

  function statusButtons(ctx, ticket) {
    var resolved = ticket.status === 'resolved';
    if (!resolved && ctx.config.customer_can_resolve) return el('p', {}, [button(ctx, t('resolve'), function () { return changeStatus(ctx, ticket, 'resolved'); })]);
    if (resolved && ctx.config.customer_can_reopen) return el('p', {}, [button(ctx, t('reopen'), function () { return changeStatus(ctx, ticket, 'open'); })]);
    return null;
  }

  async function reply(ctx, ticket, message) {
    try {
      await authed(ctx, 'POST', 'tickets/' + ticket.id + '/messages', { body: { message: message, version: ticket.version } });
    } catch (err) {
      if (err.code !== 'svc_version_conflict') throw err;
      return showTicket(ctx, ticket.id, { draft: message, error: true, message: t('conflict_reply') });
    }
    await showTicket(ctx, ticket.id, { message: t('reply_sent') });
  }

  async function changeStatus(ctx, ticket, next) {
    try {
      await authed(ctx, 'PATCH', 'tickets/' + ticket.id, { body: { status: next, version: ticket.version } });
    } catch (err) {
      if (err.code !== 'svc_version_conflict') throw err;
      return showTicket(ctx, ticket.id, { message: t('conflict_status'), error: true });
    }
    await showTicket(ctx, ticket.id, { message: next === 'resolved' ? t('resolved_done') : t('reopened_done') });
  }

  /* Files are fetched with the token and saved from a blob: never opened, never shown inline in this page. */
  async function download(ctx, ticketId, file) {
    var res = await authed(ctx, 'GET', 'tickets/' + ticketId + '/attachments/' + encodeURIComponent(file.id), { raw: true });
    var blob = new Blob([await res.response.blob()], { type: 'application/octet-stream' });
    var url = URL.createObjectURL(blob);
    var link = el('a', { href: url, download: file.filename || 'attachment', hidden: true });
    ctx.root.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
    announce(ctx, t('downloading', { file: file.filename }));
  }

  function showNewTicket(ctx) {
    show(ctx, [
      heading(t('new_ticket')),
      form(ctx, 'svc-portal__new-ticket', [
        textInput(ctx, 'subject', t('subject'), { maxlength: '200' }),
        messageBox(ctx, t('message')),
        el('div', { className: 'actions' }, [
          submitButton(t('open_ticket')),
          button(ctx, t('cancel'), function () { return showList(ctx, 1); }, 'svc-portal__link'),
        ]),
      ], async function (v) {
        var res = await authed(ctx, 'POST', 'tickets', { body: { subject: v.subject, message: v.message } });
        renderTicket(ctx, res.body, { message: t('ticket_opened') });
      }),
    ]);
  }

  /* ---- contact form (no sign-in) ---- */

  function showContact(ctx, options) {
    var closed = ctx.config && !ctx.config.new_tickets;
    show(ctx, [
      heading(t('contact_title')),
      closed ? el('p', { className: 'lede', text: t('contact_closed') }) : form(ctx, 'svc-portal__contact', [
        textInput(ctx, 'name', t('your_name'), { autocomplete: 'name', maxlength: '200' }),
        textInput(ctx, 'email', t('email'), { type: 'email', autocomplete: 'email', maxlength: '254' }),
        textInput(ctx, 'subject', t('subject'), { maxlength: '200' }),
        messageBox(ctx, t('message')),
        el('div', {}, [submitButton(t('send_message'))]),
      ], function (v) { return sendContact(ctx, v); }),
      ctx.contactOnly ? null : el('p', { className: 'actions' }, [button(ctx, t('back_to_sign_in'), function () { showSignIn(ctx); }, 'svc-portal__link')]),
    ], options);
  }

  async function sendContact(ctx, v) {
    var email = v.email.trim();
    var res = await call('POST', ctx.sitePath + 'tickets', {
      body: { email: email, name: v.name.trim(), subject: v.subject, message: v.message, page_url: pageUrl() },
    });
    show(ctx, [
      heading(t('sent_title')),
      el('p', { className: 'lede', text: t('sent_text', { id: res.body.id, email: email }) }),
      el('p', {}, [button(ctx, t('send_another'), function () { showContact(ctx); })]),
    ], { message: t('sent_status') });
  }

  /* ---- start ---- */

  /* The first view, with the loading state (and the container busy) until it is known. On page load it takes no focus; after "Try again" it does. */
  async function start(ctx, byUser) {
    var options = { focus: Boolean(byUser) };
    showLoading(ctx);
    setBusy(ctx, true);
    try {
      await firstView(ctx, options);
    } finally {
      setBusy(ctx, false);
    }
  }

  async function firstView(ctx, options) {
    try {
      ctx.config = (await call('GET', ctx.sitePath + 'portal/config')).body;
    } catch (err) {
      ctx.config = null;
      /* The contact form works without the portal (its settings only refine it). */
      if (ctx.contactOnly) return showContact(ctx, options);
      return showUnavailable(ctx, err, options);
    }
    if (ctx.contactOnly) return showContact(ctx, options);
    if (!ctx.store.get()) return showSignIn(ctx, options);
    try {
      await showList(ctx, 1, options);
    } catch (err) {
      if (!err.handled) showUnavailable(ctx, err, options);
    }
  }

  function init() {
    var containers = document.querySelectorAll('[data-svc-portal], [data-svc-contact]');
    Array.prototype.forEach.call(containers, function (container) {
      if (container.getAttribute('data-svc-mounted')) return;
      container.setAttribute('data-svc-mounted', '1');
      start(createContext(container));
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
