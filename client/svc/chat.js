/*
 * Understudy support desk: the visitor chat widget (plain ES2017, no build step, no dependencies). A
 * page includes it with one tag:
 *
 *   <script src="https://desk.example/wp-content/plugins/svc/assets/js/chat.js" async></script>
 *
 * `svc_chat_vars.api_root`, localized by the server on this file's first line, is the support/v1
 * REST root. The widget asks GET chat/config and shows nothing while chat is off. Answers stream in:
 * POST chat/messages with `stream: true` is read with fetch and a stream reader (EventSource cannot
 * POST). The thread and its token are kept in localStorage, so a reload finds the conversation again
 * (GET chat/threads/<uuid>); the token is sent as X-Chat-Token or in the body, never as a cookie.
 * Text is never inserted as HTML: every node is made with createElement and filled with textContent.
 * docs/chat.md, "The widget".
 */
(function () {
  'use strict';

  var vars = window.svc_chat_vars || {};
  var API_ROOT = String(vars.api_root || '/wp-json/support/v1/');
  var STORE_KEY = 'svc_chat:' + API_ROOT;
  var NETWORK_ERROR = 'The assistant could not be reached. Check your connection and try again.';

  /* ---- HTTP ---- */

  function apiUrl(path) {
    return API_ROOT + path;
  }

  function parseJson(text) {
    try {
      return JSON.parse(text);
    } catch (e) {
      return null;
    }
  }

  /* Resolves with the response; rejects with {message} (the server's WordPress error, or a network one). */
  async function call(method, path, body, token) {
    var headers = { Accept: 'application/json' };
    var init = { method: method, headers: headers, credentials: 'omit', mode: 'cors' };
    if (token) headers['X-Chat-Token'] = token;
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    var res;
    try {
      res = await fetch(apiUrl(path), init);
    } catch (e) {
      throw { status: 0, message: NETWORK_ERROR };
    }
    if (res.ok) return res;
    var error = parseJson(await res.text().catch(function () { return ''; })) || {};
    throw { status: res.status, code: error.code, message: typeof error.message === 'string' && error.message ? error.message : 'The assistant answered with an error (' + res.status + ').' };
  }

  /*
   * Server-sent events from a fetch body: calls onEvent(name, data) for each event. The format is
   * read as the HTML standard says (fields, comments, CR/LF/CRLF line ends); a dependency-free widget
   * cannot bring a parser with it.
   */
  async function readEvents(response, onEvent) {
    var reader = response.body.getReader();
    var decoder = new TextDecoder();
    var buffer = '';
    var name = '';
    var data = [];
    for (;;) {
      var next = await reader.read();
      buffer += next.done ? '\n' : decoder.decode(next.value, { stream: true });
      var lines = buffer.split(/\r\n|\r|\n/);
      buffer = next.done ? '' : lines.pop();
      for (var i = 0; i < lines.length; i += 1) {
        var line = lines[i];
        if (line === '') {
          if (data.length) onEvent(name || 'message', parseJson(data.join('\n')));
          name = '';
          data = [];
          continue;
        }
        if (line.charAt(0) === ':') continue;
        var colon = line.indexOf(':');
        var field = colon === -1 ? line : line.slice(0, colon);
        var value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') name = value;
        else if (field === 'data') data.push(value);
      }
      if (next.done) return;
    }
  }

  /* ---- state ---- */

  function loadThread() {
    var saved = parseJson(window.localStorage.getItem(STORE_KEY) || '');
    return saved && typeof saved.thread === 'string' && typeof saved.token === 'string' ? saved : null;
  }

  function saveThread(thread, token) {
    window.localStorage.setItem(STORE_KEY, JSON.stringify({ thread: thread, token: token }));
  }

  function newUuid() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    var bytes = window.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join('');
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
  }

  /* A token the widget chooses: 32 random bytes as hex. */
  function newToken() {
    return Array.prototype.map.call(window.crypto.getRandomValues(new Uint8Array(32)), function (b) { return (b + 256).toString(16).slice(1); }).join('');
  }

  /* ---- DOM (createElement and textContent only) ---- */

  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (key) {
      if (key === 'text') node.textContent = props[key];
      else if (key === 'style') Object.assign(node.style, props[key]);
      else node.setAttribute(key, props[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }

  /* Only http(s) links are shown as links. */
  function safeUrl(url) {
    return /^https?:\/\//i.test(String(url)) ? String(url) : null;
  }

  function sourceList(sources) {
    var links = (sources || []).map(function (s) {
      var url = safeUrl(s.url);
      return url ? el('li', {}, [el('a', { href: url, target: '_blank', rel: 'noopener noreferrer', text: s.title || url })]) : null;
    }).filter(Boolean);
    if (!links.length) return null;
    return el('div', { class: 'svc-chat-sources' }, [el('p', { text: 'Sources' }), el('ul', {}, links)]);
  }

  function Widget(config) {
    this.config = config;
    this.saved = loadThread();
    this.busy = false;
    this.build();
  }

  Widget.prototype.build = function () {
    var c = this.config;
    var self = this;
    var colour = c.color || '#2271b1';
    this.launcher = el('button', { type: 'button', class: 'svc-chat-launcher', 'aria-expanded': 'false', 'aria-controls': 'svc-chat-panel', style: { position: 'fixed', right: '16px', bottom: '16px', background: colour, color: '#fff', border: '0', borderRadius: '20px', padding: '10px 16px', cursor: 'pointer' }, text: c.name || 'Help' });
    this.log = el('div', { class: 'svc-chat-log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation', style: { maxHeight: '320px', overflowY: 'auto' } });
    this.input = el('textarea', { id: 'svc-chat-input', rows: '2', maxlength: '4000', placeholder: c.placeholder || '' });
    this.send = el('button', { type: 'submit', text: 'Send', style: { background: colour, color: '#fff', border: '0', padding: '6px 12px' } });
    this.form = el('form', { class: 'svc-chat-form' }, [el('label', { for: 'svc-chat-input', text: c.placeholder || 'Your question' }), this.input, this.send]);
    this.status = el('p', { class: 'svc-chat-status', role: 'status' });
    this.handoffButton = c.handoff ? el('button', { type: 'button', class: 'svc-chat-handoff', text: c.handoff_offer || 'Talk to a person' }) : null;
    this.closeButton = el('button', { type: 'button', 'aria-label': 'Close chat', text: '×' });
    var avatar = safeUrl(c.avatar_url) ? el('img', { src: c.avatar_url, alt: '', width: '24', height: '24' }) : null;
    this.panel = el('div', { id: 'svc-chat-panel', class: 'svc-chat-panel', role: 'dialog', 'aria-label': c.name || 'Help', hidden: 'hidden', style: { position: 'fixed', right: '16px', bottom: '64px', width: '340px', background: '#fff', color: '#1d2327', border: '1px solid #c3c4c7', borderRadius: '8px', padding: '12px', font: '14px/1.4 sans-serif' } }, [
      el('div', { class: 'svc-chat-header', style: { display: 'flex', gap: '8px', alignItems: 'center' } }, [avatar, el('h2', { text: c.name || 'Help', style: { fontSize: '16px', margin: '0', flex: '1' } }), this.closeButton]),
      this.log, this.status, this.form, this.handoffButton,
    ]);
    document.body.appendChild(this.launcher);
    document.body.appendChild(this.panel);
    this.launcher.addEventListener('click', function () { self.toggle(); });
    this.closeButton.addEventListener('click', function () { self.close(); });
    this.panel.addEventListener('keydown', function (e) { if (e.key === 'Escape') self.close(); });
    this.form.addEventListener('submit', function (e) { e.preventDefault(); self.ask(); });
    this.input.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); self.ask(); }
    });
    if (this.handoffButton) this.handoffButton.addEventListener('click', function () { self.showHandoff(); });
    this.bubble('assistant', c.greeting || '');
  };

  Widget.prototype.toggle = function () {
    if (this.panel.hidden) this.open();
    else this.close();
  };

  Widget.prototype.open = function () {
    this.panel.hidden = false;
    this.launcher.setAttribute('aria-expanded', 'true');
    if (!this.restored) {
      this.restored = true;
      this.restore();
    }
    this.input.focus();
  };

  Widget.prototype.close = function () {
    this.panel.hidden = true;
    this.launcher.setAttribute('aria-expanded', 'false');
    this.launcher.focus();
  };

  /* After a reload: the stored conversation again, or a new one when it is gone. */
  Widget.prototype.restore = async function () {
    if (!this.saved) return;
    try {
      var res = await call('GET', 'chat/threads/' + encodeURIComponent(this.saved.thread), undefined, this.saved.token);
      var conversation = await res.json();
      var self = this;
      conversation.messages.forEach(function (m) { self.bubble(m.role, m.content, m.sources); });
      if (conversation.handed_off) this.freeze('This conversation was handed to a person (ticket #' + conversation.ticket_id + '). The answer comes by email.');
    } catch (e) {
      if (e.status === 404) {
        window.localStorage.removeItem(STORE_KEY);
        this.saved = null;
      }
    }
  };

  Widget.prototype.bubble = function (role, text, sources) {
    var body = el('p', { class: 'svc-chat-text', text: text || '' });
    var node = el('div', { class: 'svc-chat-message svc-chat-' + role, 'data-role': role }, [el('span', { class: 'svc-chat-who', text: role === 'visitor' ? 'You' : (this.config.name || 'Assistant') }), body, sourceList(sources)]);
    this.log.appendChild(node);
    this.log.scrollTop = this.log.scrollHeight;
    return { node: node, body: body };
  };

  Widget.prototype.say = function (text) {
    this.status.textContent = text;
  };

  Widget.prototype.ask = async function () {
    var question = this.input.value.trim();
    if (!question || this.busy) return;
    if (!this.saved) {
      this.saved = { thread: newUuid(), token: newToken() };
      saveThread(this.saved.thread, this.saved.token);
    }
    this.busy = true;
    this.send.disabled = true;
    this.input.value = '';
    this.say('');
    this.bubble('visitor', question);
    var answer = null;
    var self = this;
    try {
      var res = await call('POST', 'chat/messages', {
        thread: this.saved.thread, token: this.saved.token, message: question, stream: true,
        page_url: window.location.href.slice(0, 2048), page_title: document.title.slice(0, 300),
      });
      answer = this.bubble('assistant', '');
      answer.node.setAttribute('aria-busy', 'true');
      await readEvents(res, function (name, data) {
        if (!data) return;
        if (name === 'delta') answer.body.textContent += data.text;
        if (name === 'done' || name === 'error') {
          answer.body.textContent = data.reply.content;
          var list = sourceList(data.reply.sources);
          if (list) answer.node.appendChild(list);
        }
        if (name === 'error') self.say(data.message);
        if (name === 'done' && data.handoff_offered && self.handoffButton) self.say('Would you like to talk to a person?');
      });
    } catch (e) {
      this.say(e && e.message ? e.message : NETWORK_ERROR);
      if (e && e.code === 'svc_chat_handed_off') this.freeze(e.message);
    } finally {
      if (answer) answer.node.removeAttribute('aria-busy');
      this.busy = false;
      this.send.disabled = false;
    }
  };

  Widget.prototype.freeze = function (text) {
    this.input.disabled = true;
    this.send.disabled = true;
    if (this.handoffButton) this.handoffButton.hidden = true;
    this.say(text);
  };

  Widget.prototype.showHandoff = function () {
    if (this.handoffForm) return this.handoffForm.querySelector('input').focus();
    if (!this.saved) return this.say('Ask your question first, so the person can see it.');
    var email = el('input', { id: 'svc-chat-email', type: 'email', required: 'required', autocomplete: 'email' });
    var name = el('input', { id: 'svc-chat-name', type: 'text', autocomplete: 'name', maxlength: '200' });
    var note = el('textarea', { id: 'svc-chat-note', rows: '2', maxlength: '4000' });
    var self = this;
    this.handoffForm = el('form', { class: 'svc-chat-handoff-form' }, [
      el('label', { for: 'svc-chat-email', text: 'Email address' }), email,
      el('label', { for: 'svc-chat-name', text: 'Name (optional)' }), name,
      el('label', { for: 'svc-chat-note', text: 'Anything to add? (optional)' }), note,
      el('button', { type: 'submit', text: 'Send to a person' }),
    ]);
    this.handoffForm.addEventListener('submit', async function (e) {
      e.preventDefault();
      try {
        var res = await call('POST', 'chat/handoff', { thread: self.saved.thread, token: self.saved.token, email: email.value.trim(), name: name.value.trim(), note: note.value.trim() });
        var done = await res.json();
        self.handoffForm.remove();
        self.freeze('Thanks! A person will answer by email (ticket #' + done.ticket_id + ').');
      } catch (err) {
        self.say(err.message);
        email.focus();
      }
    });
    this.panel.appendChild(this.handoffForm);
    email.focus();
  };

  async function start() {
    try {
      var config = await (await call('GET', 'chat/config')).json();
      if (config && config.enabled) new Widget(config);
    } catch (e) {
      /* Chat unreachable or refused for this page: the widget stays away. */
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
