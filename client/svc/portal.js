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
 * Text is never inserted as HTML: every node is made with createElement and filled with textContent.
 * The session token is kept in sessionStorage (this tab only) and sent as X-Svc-Portal, never as a
 * cookie. docs/portal.md, "Embedding the portal".
 */
(function () {
  'use strict';

  var vars = window.svc_portal_vars || {};
  var API_ROOT = String(vars.api_root || '/wp-json/support/v1/');
  var PER_PAGE = 10;
  var NETWORK_ERROR = 'The support desk could not be reached. Check your connection and try again.';
  var STATUS_LABELS = { open: 'Open', waiting: 'Waiting for your reply', resolved: 'Resolved' };
  var instances = 0;

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
      throw failure(0, 'network_error', NETWORK_ERROR);
    }
    if (res.ok && opts.raw) return { response: res };
    var body = parseJson(await res.text().catch(function () { return ''; }));
    if (res.ok) return { body: body, headers: res.headers };
    var error = body && typeof body === 'object' ? body : {};
    var data = error.data && typeof error.data === 'object' ? error.data : {};
    /* Retry-After is not a CORS-readable header unless exposed; the body's data.retry_after always is. */
    var retryAfter = Number(data.retry_after || res.headers.get('Retry-After') || 0);
    var message = typeof error.message === 'string' && error.message ? error.message : 'The support desk answered with an error (' + res.status + ').';
    throw failure(res.status, String(error.code || 'http_' + res.status), message, data, retryAfter);
  }

  /* ---- DOM (createElement and textContent only) ---- */

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
      else if (key === 'onInput') node.addEventListener('input', value);
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

  function plural(n, word) {
    return n + ' ' + word + (n === 1 ? '' : 's');
  }

  function waitText(seconds) {
    if (!(seconds > 0)) return 'Please try again later.';
    if (seconds < 60) return 'Please try again in ' + plural(Math.ceil(seconds), 'second') + '.';
    return 'Please try again in ' + plural(Math.ceil(seconds / 60), 'minute') + '.';
  }

  /* What the server is told of the page: http(s) only, within the 2,048 characters it accepts. */
  function pageUrl() {
    var loc = window.location;
    if (loc.protocol !== 'http:' && loc.protocol !== 'https:') return undefined;
    if (loc.href.length <= 2048) return loc.href;
    var short = loc.origin + loc.pathname;
    return short.length <= 2048 ? short : undefined;
  }

  /* sessionStorage may be refused (privacy settings, sandboxed frames): the session then lives in memory. */
  function sessionStore(siteId) {
    var key = 'svc_portal_session:' + siteId;
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

  /* ---- One portal (or contact form) in one container ---- */

  function mount(container) {
    var siteId = String(container.getAttribute('data-site') || '');
    var contactOnly = container.hasAttribute('data-svc-contact') && !container.hasAttribute('data-svc-portal');
    var prefix = 'svc-portal-' + (++instances) + '-';
    var store = sessionStore(siteId);
    var sitePath = 'sites/' + encodeURIComponent(siteId) + '/';
    var config = null;
    var busy = false;

    var status = el('div', { className: 'svc-portal__status', 'aria-live': 'polite' });
    var view = el('div', { className: 'svc-portal__view' });
    container.classList.add('svc-portal');
    container.textContent = '';
    container.appendChild(status);
    container.appendChild(view);

    function announce(text, isError) {
      status.textContent = text || '';
      status.className = 'svc-portal__status' + (text && isError ? ' svc-portal__status--error' : '');
    }

    /* Replaces the view; after a user's action focus goes to its heading (never on page load). */
    function show(nodes, options) {
      var o = options || {};
      view.textContent = '';
      nodes.forEach(function (node) { if (node) view.appendChild(node); });
      announce(o.message || '', o.error);
      var title = view.querySelector('h2');
      if (o.focus !== false && title) title.focus();
    }

    function heading(text) {
      return el('h2', { className: 'svc-portal__heading', tabindex: '-1', text: text });
    }

    function setBusy(on) {
      busy = on;
      if (on) container.setAttribute('aria-busy', 'true');
      else container.removeAttribute('aria-busy');
      Array.prototype.forEach.call(container.querySelectorAll('button'), function (button) { button.disabled = on; });
    }

    /* Runs a user's action: one at a time, buttons disabled meanwhile, failures reported. */
    async function act(work) {
      if (busy) return;
      var focused = document.activeElement;
      setBusy(true);
      try {
        await work();
      } catch (err) {
        report(err);
      } finally {
        setBusy(false);
        var active = document.activeElement;
        if ((!active || active === document.body) && focused && focused.isConnected) focused.focus();
      }
    }

    function report(err) {
      if (err && err.handled) return;
      if (!err || typeof err.status !== 'number') {
        announce(NETWORK_ERROR, true);
        return;
      }
      if (err.status === 429) {
        announce('Too many attempts. ' + waitText(err.retryAfter), true);
        return;
      }
      var names = invalidFieldNames(err);
      if (names.length && markInvalid(names, err.message)) return;
      announce(err.message, true);
    }

    /* ---- forms ---- */

    function field(name, label, input, extra) {
      var id = prefix + name;
      input.id = id;
      input.name = name;
      var describedBy = (extra || []).map(function (node) { return node.id; }).filter(Boolean).join(' ');
      if (describedBy) input.setAttribute('aria-describedby', describedBy);
      return el('div', { className: 'svc-portal__field' }, [el('label', { for: id, text: label }), input].concat(extra || []));
    }

    function textInput(name, label, attrs) {
      return field(name, label, el('input', Object.assign({ type: 'text', required: true }, attrs)));
    }

    /* The message box with the site's hint and a count against its limit (counted in characters, as the server does). */
    function messageBox(label, value) {
      var limit = config && config.message_limit > 0 ? config.message_limit : 0;
      var hint = config && config.message_hint ? el('p', { id: prefix + 'message-hint', className: 'svc-portal__hint', text: config.message_hint }) : null;
      var count = limit ? el('p', { id: prefix + 'message-count', className: 'svc-portal__count' }) : null;
      var textarea = el('textarea', { rows: '6', required: true, 'data-limit': limit || null });
      textarea.value = value || '';
      function update() {
        if (count) count.textContent = codePoints(textarea.value) + ' of ' + limit + ' characters';
      }
      textarea.addEventListener('input', update);
      update();
      return field('message', label, textarea, [hint, count].filter(Boolean));
    }

    function submitButton(text) {
      return el('button', { type: 'submit', className: 'svc-portal__submit', text: text });
    }

    function button(text, onClick, className) {
      return el('button', { type: 'button', className: className || 'svc-portal__button', text: text, onClick: function () { act(onClick); } });
    }

    function form(className, children, onSubmit) {
      return el('form', {
        className: 'svc-portal__form ' + className,
        novalidate: true,
        onSubmit: function (event) {
          event.preventDefault();
          var target = event.currentTarget;
          if (!validate(target)) return;
          act(function () { return onSubmit(values(target)); });
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

    function labelOf(input) {
      var label = input.id ? container.querySelector('label[for="' + input.id + '"]') : null;
      return label ? label.textContent : input.name;
    }

    function clearInvalid() {
      Array.prototype.forEach.call(view.querySelectorAll('[aria-invalid="true"]'), function (input) { input.removeAttribute('aria-invalid'); });
    }

    /* Checks the fields before sending; marks every invalid one and focuses the first, named in the status. */
    function validate(formNode) {
      clearInvalid();
      var first = null;
      var firstMessage = '';
      Array.prototype.forEach.call(formNode.elements, function (input) {
        if (!input.name || !input.willValidate) return;
        var limit = Number(input.getAttribute('data-limit') || 0);
        var value = input.value.trim();
        var message = '';
        if (input.required && !value) message = 'Please fill in this field.';
        else if (limit && codePoints(input.value) > limit) message = 'Please shorten this to ' + limit + ' characters (it has ' + codePoints(input.value) + ').';
        else if (!input.checkValidity()) message = input.validationMessage || 'Please check this field.';
        if (!message) return;
        input.setAttribute('aria-invalid', 'true');
        if (!first) {
          first = input;
          firstMessage = message;
        }
      });
      if (!first) return true;
      announce(labelOf(first) + ': ' + firstMessage, true);
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

    function markInvalid(names, message) {
      clearInvalid();
      var inputs = Array.prototype.filter.call(view.querySelectorAll('input, textarea'), function (input) { return names.indexOf(input.name) !== -1; });
      if (!inputs.length) return false;
      inputs.forEach(function (input) { input.setAttribute('aria-invalid', 'true'); });
      announce(message, true);
      inputs[0].focus();
      return true;
    }

    /* ---- signed-in calls ---- */

    function session() {
      return store.get();
    }

    /* A call with the session token; a 401 means the session is gone: back to sign-in. */
    async function authed(method, path, options) {
      var current = session();
      if (!current) throw failure(401, 'svc_portal_session_invalid', 'Please sign in.');
      try {
        return await call(method, sitePath + 'portal/' + path, Object.assign({ token: current.token }, options));
      } catch (err) {
        if (err.status === 401) {
          store.set(null);
          showSignIn({ message: 'Your session has ended. Please sign in again.', error: true });
          throw { handled: true };
        }
        throw err;
      }
    }

    /* ---- views ---- */

    function showUnavailable(err) {
      show([
        heading('Support is not available'),
        el('p', { text: 'The support portal could not be loaded.' }),
        button('Try again', start),
      ], { message: err.message, error: true, focus: false });
    }

    function showSignIn(options) {
      var contact = config.new_tickets
        ? el('p', {}, [button('Contact us without signing in', function () { showContact(); }, 'svc-portal__link')])
        : null;
      show([
        heading('Sign in to ' + config.site_name + ' support'),
        el('p', { text: 'Enter your email address and we will email you a 6-digit sign-in code.' }),
        form('svc-portal__sign-in', [
          textInput('email', 'Email address', { type: 'email', autocomplete: 'email', maxlength: '254' }),
          submitButton('Email me a code'),
        ], function (v) { return requestCode(v.email.trim()); }),
        contact,
      ], options);
    }

    async function requestCode(email) {
      var res = await call('POST', sitePath + 'portal/code', { body: { email: email } });
      showCode(email, res.body);
    }

    function showCode(email, sent) {
      var minutes = Math.round(((sent && sent.expires_in) || 600) / 60);
      show([
        heading('Enter your code'),
        el('p', { text: 'We sent a 6-digit code to ' + email + '. It is valid for ' + plural(minutes, 'minute') + '.' }),
        form('svc-portal__code', [
          textInput('code', 'Sign-in code', { inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}', maxlength: '6' }),
          submitButton('Sign in'),
        ], function (v) { return signIn(email, v.code.trim()); }),
        el('p', {}, [
          button('Send a new code', function () { return requestCode(email); }, 'svc-portal__link'),
          ' ',
          button('Use another email address', function () { showSignIn(); }, 'svc-portal__link'),
        ]),
      ], { message: 'We sent a sign-in code to ' + email + '.' });
    }

    async function signIn(email, code) {
      var res = await call('POST', sitePath + 'portal/session', { body: { email: email, code: code } });
      store.set({ token: res.body.token, email: res.body.email });
      await showList(1, { message: 'You are signed in as ' + res.body.email + '.' });
    }

    async function signOut() {
      var current = session();
      store.set(null);
      if (current) {
        try {
          await call('DELETE', sitePath + 'portal/session', { token: current.token });
        } catch (e) { /* the token is forgotten here either way */ }
      }
      showSignIn({ message: 'You are signed out.' });
    }

    function accountBar() {
      return el('p', { className: 'svc-portal__account' }, [
        'Signed in as ' + session().email + '. ',
        button('Sign out', signOut, 'svc-portal__link'),
      ]);
    }

    async function showList(page, options) {
      var res = await authed('GET', 'tickets', { query: { page: page, per_page: PER_PAGE } });
      var tickets = Array.isArray(res.body) ? res.body : [];
      var pages = Number(res.headers.get('X-WP-TotalPages') || 1);
      var items = tickets.map(function (ticket) {
        return el('li', { className: 'svc-portal__ticket' }, [
          button(ticket.subject, function () { return showTicket(ticket.id); }, 'svc-portal__ticket-link'),
          el('span', { className: 'svc-portal__meta', text: ' #' + ticket.id + ' · ' + statusLabel(ticket.status) + ' · updated ' + ticket.updated_at }),
        ]);
      });
      show([
        heading('Your tickets'),
        accountBar(),
        config.new_tickets ? el('p', {}, [button('New ticket', function () { showNewTicket(); })]) : null,
        items.length ? el('ul', { className: 'svc-portal__tickets' }, items) : el('p', { text: 'You have no tickets on this site yet.' }),
        el('p', { className: 'svc-portal__pages' }, [
          page > 1 ? button('Newer tickets', function () { return showList(page - 1); }) : null,
          page < pages ? button('Older tickets', function () { return showList(page + 1); }) : null,
        ]),
      ], options);
    }

    function statusLabel(value) {
      return STATUS_LABELS[value] || String(value);
    }

    async function showTicket(id, options) {
      var res = await authed('GET', 'tickets/' + encodeURIComponent(id));
      renderTicket(res.body, options);
    }

    function renderTicket(ticket, options) {
      var o = options || {};
      var messages = (ticket.messages || []).map(function (message) { return messageItem(ticket, message); });
      show([
        el('p', {}, [button('Back to your tickets', function () { return showList(1); }, 'svc-portal__link')]),
        heading(ticket.subject),
        el('p', { className: 'svc-portal__meta', text: 'Ticket #' + ticket.id + ' · ' + statusLabel(ticket.status) }),
        el('ol', { className: 'svc-portal__messages' }, messages),
        statusButtons(ticket),
        form('svc-portal__reply', [
          messageBox('Your reply', o.draft),
          submitButton('Send reply'),
        ], function (v) { return reply(ticket, v.message); }),
      ], o);
    }

    function messageItem(ticket, message) {
      var author = message.author || {};
      var who = (author.name || (author.kind === 'agent' ? 'Support' : 'You')) + (author.kind === 'agent' ? ' (support team)' : '');
      var files = (message.attachments || []).map(function (file) {
        return el('li', {}, [button('Download ' + file.filename, function () { return download(ticket.id, file); }, 'svc-portal__link')]);
      });
      return el('li', { className: 'svc-portal__message svc-portal__message--' + (author.kind === 'agent' ? 'agent' : 'customer') }, [
        el('p', { className: 'svc-portal__meta', text: who + ' · ' + message.created_at }),
        messageBody(message.body),
        files.length ? el('ul', { className: 'svc-portal__files' }, files) : null,
      ]);
    }

    /* The body is text: pre-wrap keeps its lines without any markup (set through CSSOM, which a page's CSP allows). */
    function messageBody(text) {
      var body = el('div', { className: 'svc-portal__body', text: text });
      body.style.whiteSpace = 'pre-wrap';
      return body;
    }

    function statusButtons(ticket) {
      var resolved = ticket.status === 'resolved';
      if (!resolved && config.customer_can_resolve) return el('p', {}, [button('Mark as resolved', function () { return changeStatus(ticket, 'resolved'); })]);
      if (resolved && config.customer_can_reopen) return el('p', {}, [button('Reopen ticket', function () { return changeStatus(ticket, 'open'); })]);
      return null;
    }

    async function reply(ticket, message) {
      try {
        await authed('POST', 'tickets/' + ticket.id + '/messages', { body: { message: message, version: ticket.version } });
      } catch (err) {
        if (err.code !== 'svc_version_conflict') throw err;
        return showTicket(ticket.id, {
          draft: message, error: true,
          message: 'This ticket changed while you were writing, so it was reloaded. Your reply was not sent yet: check it and send it again.',
        });
      }
      await showTicket(ticket.id, { message: 'Your reply was sent.' });
    }

    async function changeStatus(ticket, next) {
      try {
        await authed('PATCH', 'tickets/' + ticket.id, { body: { status: next, version: ticket.version } });
      } catch (err) {
        if (err.code !== 'svc_version_conflict') throw err;
        return showTicket(ticket.id, { message: 'This ticket changed since you opened it, so it was reloaded. Please try again.', error: true });
      }
      await showTicket(ticket.id, { message: next === 'resolved' ? 'The ticket is marked as resolved.' : 'The ticket is open again.' });
    }

    /* Files are fetched with the token and saved from a blob: never opened, never shown inline in this page. */
    async function download(ticketId, file) {
      var res = await authed('GET', 'tickets/' + ticketId + '/attachments/' + encodeURIComponent(file.id), { raw: true });
      var blob = new Blob([await res.response.blob()], { type: 'application/octet-stream' });
      var url = URL.createObjectURL(blob);
      var link = el('a', { href: url, download: file.filename || 'attachment', hidden: true });
      container.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
      announce('Downloading ' + file.filename + '.');
    }

    function showNewTicket() {
      show([
        heading('New ticket'),
        form('svc-portal__new-ticket', [
          textInput('subject', 'Subject', { maxlength: '200' }),
          messageBox('Message'),
          submitButton('Open ticket'),
        ], async function (v) {
          var res = await authed('POST', 'tickets', { body: { subject: v.subject, message: v.message } });
          renderTicket(res.body, { message: 'Your ticket was opened.' });
        }),
        el('p', {}, [button('Cancel', function () { return showList(1); }, 'svc-portal__link')]),
      ]);
    }

    function showContact(options) {
      var o = options || {};
      var closed = config && !config.new_tickets;
      show([
        heading('Contact us'),
        closed ? el('p', { text: 'This site is not taking new messages at the moment.' }) : form('svc-portal__contact', [
          textInput('name', 'Your name', { autocomplete: 'name', maxlength: '200' }),
          textInput('email', 'Email address', { type: 'email', autocomplete: 'email', maxlength: '254' }),
          textInput('subject', 'Subject', { maxlength: '200' }),
          messageBox('Message'),
          submitButton('Send message'),
        ], sendContact),
        contactOnly ? null : el('p', {}, [button('Back to sign in', function () { showSignIn(); }, 'svc-portal__link')]),
      ], o);
    }

    async function sendContact(v) {
      var email = v.email.trim();
      var res = await call('POST', sitePath + 'tickets', {
        body: { email: email, name: v.name.trim(), subject: v.subject, message: v.message, page_url: pageUrl() },
      });
      show([
        heading('Message sent'),
        el('p', { text: 'Thank you. Your ticket number is #' + res.body.id + '; we will answer by email at ' + email + '.' }),
        el('p', {}, [button('Send another message', function () { showContact(); })]),
      ], { message: 'Your message was sent.' });
    }

    /* ---- start ---- */

    async function start() {
      try {
        config = (await call('GET', sitePath + 'portal/config')).body;
      } catch (err) {
        config = null;
        /* The contact form works without the portal (its settings only refine it). */
        if (contactOnly) return showContact({ focus: false });
        return showUnavailable(err);
      }
      if (contactOnly) return showContact({ focus: false });
      if (!session()) return showSignIn({ focus: false });
      try {
        await showList(1, { focus: false });
      } catch (err) {
        if (!err.handled) showUnavailable(err);
      }
    }

    start();
  }

  function init() {
    var containers = document.querySelectorAll('[data-svc-portal], [data-svc-contact]');
    Array.prototype.forEach.call(containers, function (container) {
      if (container.getAttribute('data-svc-mounted')) return;
      container.setAttribute('data-svc-mounted', '1');
      mount(container);
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
