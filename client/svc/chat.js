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
 * The widget lives in an open shadow root (the page's CSS and its own stay apart), styled through
 * CSS custom properties a site may set on `svc-chat` (docs/chat.md, "Restyling"); its words come
 * from the settings or `window.svc_strings.chat`. Text is never inserted as HTML: every node is made
 * with createElement and filled with textContent. docs/chat.md, "The widget".
 */
(function () {
  'use strict';

  var vars = window.svc_chat_vars || {};
  var API_ROOT = String(vars.api_root || '/wp-json/support/v1/');
  var STORE_KEY = 'svc_chat:' + API_ROOT;
  /* Below this width the panel takes the whole screen (and keeps the focus inside). */
  var PHONE = '(max-width: 480px)';
  /* How close to the bottom (px) still counts as "reading the newest text". */
  var BOTTOM_SLACK = 32;

  /* The widget's own words; a site translates them with window.svc_strings = {chat: {...}} before this script. */
  var STRINGS = Object.assign({
    subtitle: 'Answers from our documentation',
    close: 'Close chat',
    you: 'You',
    question: 'Your question',
    send: 'Send',
    sources: 'Sources',
    loading: 'Loading your conversation…',
    writing: 'Writing an answer…',
    new_message: 'New message',
    unread: '{n} new',
    retry: 'Try again',
    network_error: 'The assistant could not be reached. Check your connection and try again.',
    load_error: 'Your conversation could not be loaded.',
    server_error: 'The assistant answered with an error ({status}).',
    cut_short: 'The answer was cut short.',
    offer: 'Would you like to talk to a person?',
    ask_first: 'Ask your question first, so the person can see it.',
    handoff_intro: 'Leave your email address and a person will answer by email.',
    email: 'Email address',
    name: 'Name (optional)',
    note: 'Anything to add? (optional)',
    handoff_send: 'Send to a person',
    cancel: 'Cancel',
    handed_off: 'Handed to a person',
    ticket: 'Ticket #{ticket}. The answer comes by email.',
    status_ticket: 'Thanks! A person will answer by email (ticket #{ticket}).',
  }, ((window.svc_strings || {}).chat) || {});

  function t(key, values) {
    return String(STRINGS[key]).replace(/\{(\w+)\}/g, function (all, name) { return values && name in values ? String(values[name]) : all; });
  }

  /* ---- HTTP ---- */

  function parseJson(text) {
    try {
      return JSON.parse(text);
    } catch (e) {
      return null;
    }
  }

  /* Resolves with the response; rejects with {status, code, message} (the server's WordPress error, or a network one). */
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
      res = await fetch(API_ROOT + path, init);
    } catch (e) {
      throw { status: 0, message: t('network_error') };
    }
    if (res.ok) return res;
    var error = parseJson(await res.text().catch(function () { return ''; })) || {};
    throw { status: res.status, code: error.code, message: typeof error.message === 'string' && error.message ? error.message : t('server_error', { status: res.status }) };
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
    try {
      var saved = parseJson(window.localStorage.getItem(STORE_KEY) || '');
      return saved && typeof saved.thread === 'string' && typeof saved.token === 'string' ? saved : null;
    } catch (e) {
      return null;
    }
  }

  function saveThread(saved) {
    try {
      if (saved) window.localStorage.setItem(STORE_KEY, JSON.stringify(saved));
      else window.localStorage.removeItem(STORE_KEY);
    } catch (e) { /* storage refused: the conversation lasts as long as the page */ }
  }

  function randomHex(bytes) {
    return Array.prototype.map.call(window.crypto.getRandomValues(new Uint8Array(bytes)), function (b) { return (b + 256).toString(16).slice(1); }).join('');
  }

  function newUuid() {
    if (window.crypto.randomUUID) return window.crypto.randomUUID();
    var hex = randomHex(16).split('');
    hex[12] = '4';
    hex[16] = '89ab'.charAt(parseInt(hex[16], 16) & 3);
    hex = hex.join('');
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
  }

  /* ---- DOM (createElement and textContent only) ---- */

  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (key) {
      var value = props[key];
      if (value === undefined || value === null || value === false) return;
      if (key === 'text') node.textContent = String(value);
      else if (key === 'on') Object.keys(value).forEach(function (type) { node.addEventListener(type, value[type]); });
      else node.setAttribute(key, value === true ? '' : String(value));
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child); });
    return node;
  }

  /* Only http(s) links are shown as links. */
  function safeUrl(url) {
    return /^https?:\/\//i.test(String(url)) ? String(url) : null;
  }

  /* ---- times: relative and local, the full date on hover ---- */

  var LOCALE = document.documentElement.lang || navigator.language || 'en';

  function relativeTime(date) {
    var seconds = Math.round((date.getTime() - Date.now()) / 1000);
    var steps = [[60, 'second'], [3600, 'minute'], [86400, 'hour'], [604800, 'day'], [2629800, 'week'], [31557600, 'month'], [Infinity, 'year']];
    var format = new Intl.RelativeTimeFormat(LOCALE, { numeric: 'auto', style: 'short' });
    if (Math.abs(seconds) < 45) return format.format(0, 'second');
    for (var i = 1; i < steps.length; i += 1) {
      if (Math.abs(seconds) < steps[i][0]) return format.format(Math.round(seconds / steps[i - 1][0]), steps[i][1]);
    }
    return format.format(Math.round(seconds / steps[steps.length - 1][0]), 'year');
  }

  function timeNode(iso) {
    var date = new Date(iso);
    if (isNaN(date.getTime())) return null;
    return el('time', { datetime: date.toISOString(), title: new Intl.DateTimeFormat(LOCALE, { dateStyle: 'full', timeStyle: 'short' }).format(date), text: relativeTime(date) });
  }

  /* ---- look ---- */

  /* White or near-black text on the brand colour, whichever reaches the higher contrast (WCAG AA needs 4.5:1). */
  function textOn(hex) {
    var c = [1, 3, 5].map(function (i) {
      var v = parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    var lum = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    return (1.05 / (lum + 0.05)) >= ((lum + 0.05) / 0.05) ? '#ffffff' : '#1d2327';
  }

  function css(colour) {
    return [
      ':host{all:initial;--svc-accent:' + colour + ';--svc-on-accent:' + textOn(colour) + ';--svc-bg:#fff;--svc-text:#1d2327;--svc-muted:#50575e;',
      '--svc-border:#dcdcde;--svc-assistant-bg:#f0f2f4;--svc-error:#b32d2e;--svc-radius:16px;--svc-font:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;',
      '--svc-z:2147483000;font:15px/1.45 var(--svc-font);color:var(--svc-text)}',
      '*,*::before,*::after{box-sizing:border-box}',
      '[hidden]{display:none!important}',
      ':focus-visible{outline:3px solid var(--svc-accent);outline-offset:2px}',
      'button{font:inherit;cursor:pointer}',
      '.launcher{position:fixed;inset-inline-end:20px;bottom:20px;z-index:var(--svc-z);display:flex;align-items:center;gap:8px;min-height:52px;padding:0 20px 0 16px;border:0;border-radius:26px;',
      'background:var(--svc-accent);color:var(--svc-on-accent);font-weight:600;box-shadow:0 4px 16px rgba(0,0,0,.2)}',
      '.launcher:focus-visible{outline-color:var(--svc-text)}',
      '.launcher-icon{width:22px;height:18px;border-radius:9px 9px 9px 2px;background:currentColor;opacity:.9}',
      '.badge{min-width:22px;height:22px;padding:0 6px;border-radius:11px;background:#d63638;color:#fff;font-size:12px;line-height:22px;text-align:center}',
      '.panel{position:fixed;inset-inline-end:20px;bottom:88px;z-index:var(--svc-z);display:flex;flex-direction:column;width:380px;height:min(640px,calc(100vh - 108px));',
      'background:var(--svc-bg);border-radius:var(--svc-radius);box-shadow:0 12px 40px rgba(0,0,0,.25);overflow:hidden}',
      '.header{display:flex;align-items:center;gap:12px;padding:14px 16px;background:var(--svc-accent);color:var(--svc-on-accent)}',
      '.header h2{margin:0;font-size:17px;line-height:1.2}',
      '.header p{margin:2px 0 0;font-size:13px;opacity:.92}',
      '.header .titles{flex:1;min-width:0}',
      '.close{width:36px;height:36px;border:0;border-radius:18px;background:transparent;color:inherit;font-size:24px;line-height:1}',
      '.close:hover{background:rgba(0,0,0,.12)}',
      '.close:focus-visible{outline-color:var(--svc-on-accent)}',
      '.avatar{flex:none;width:36px;height:36px;border-radius:50%;object-fit:cover;display:flex;align-items:center;justify-content:center;',
      'background:var(--svc-on-accent);color:var(--svc-accent);font-weight:700}',
      '.msg .avatar{width:28px;height:28px;font-size:13px;background:var(--svc-accent);color:var(--svc-on-accent)}',
      '.body{position:relative;flex:1;min-height:0;display:flex;flex-direction:column}',
      '.log{flex:1;min-height:0;overflow-y:auto;overflow-x:hidden;padding:16px;display:flex;flex-direction:column;gap:14px;overscroll-behavior:contain}',
      '.msg{display:flex;gap:8px;align-items:flex-start;max-width:100%}',
      '.msg:focus{outline:none}',
      '.msg:focus-visible .bubble{outline:3px solid var(--svc-accent);outline-offset:2px}',
      '.msg-visitor{flex-direction:row-reverse}',
      '.stack{display:flex;flex-direction:column;gap:4px;min-width:0;max-width:82%}',
      '.msg-visitor .stack{align-items:flex-end}',
      '.bubble{padding:10px 14px;border-radius:18px;background:var(--svc-assistant-bg);overflow-wrap:anywhere;word-break:normal;min-width:0}',
      '.msg-assistant .bubble{border-end-start-radius:4px}',
      '.msg-visitor .bubble{background:var(--svc-accent);color:var(--svc-on-accent);border-end-end-radius:4px}',
      '.text{margin:0;white-space:pre-wrap}',
      '.meta{font-size:12px;color:var(--svc-muted);padding:0 4px}',
      '.sources{margin-top:8px;padding-top:8px;border-top:1px solid var(--svc-border);font-size:13px}',
      '.sources p{margin:0 0 4px;font-weight:600;color:var(--svc-muted)}',
      '.sources ul{margin:0;padding:0;list-style:none}',
      '.sources a{color:#0a4b78;overflow-wrap:anywhere}',
      '.typing{display:inline-flex;gap:4px;padding:4px 0}',
      '.typing i{width:7px;height:7px;border-radius:50%;background:var(--svc-muted);animation:svc-blink 1.2s infinite}',
      '.typing i:nth-child(2){animation-delay:.2s}.typing i:nth-child(3){animation-delay:.4s}',
      '@keyframes svc-blink{0%,80%,100%{opacity:.25}40%{opacity:1}}',
      '@media (prefers-reduced-motion:reduce){.typing i{animation:none}}',
      '.notice{align-self:center;max-width:100%;padding:10px 14px;border-radius:12px;background:#fcf0f1;color:var(--svc-error);font-size:14px;text-align:center;overflow-wrap:anywhere}',
      '.notice button,.link{margin-inline-start:8px;padding:4px 10px;border:1px solid currentColor;border-radius:14px;background:transparent;color:inherit;font-size:13px;font-weight:600}',
      '.loading{align-self:center;color:var(--svc-muted);font-size:14px}',
      '.ticket{align-self:stretch;padding:14px 16px;border:1px solid var(--svc-border);border-inline-start:4px solid var(--svc-accent);border-radius:12px;background:#fff}',
      '.ticket:focus-visible{outline:3px solid var(--svc-accent);outline-offset:2px}',
      '.ticket strong{display:block;margin-bottom:2px}',
      '.jump{position:absolute;bottom:12px;left:50%;transform:translateX(-50%);padding:6px 14px;border:0;border-radius:16px;background:var(--svc-text);color:#fff;font-size:13px;font-weight:600;box-shadow:0 2px 8px rgba(0,0,0,.25)}',
      '.status{margin:0;padding:0 16px;font-size:13px;color:var(--svc-muted);overflow-wrap:anywhere}',
      '.status:not(:empty){padding-top:8px}',
      '.footer{padding:0 16px 12px;margin-top:-4px}',
      '.offer{padding:4px 12px;border:1px solid var(--svc-border);border-radius:14px;background:#fff;color:var(--svc-text);font-size:13px;font-weight:600}',
      '.offer:hover{border-color:var(--svc-accent)}',
      '.composer{display:flex;align-items:flex-end;gap:8px;padding:12px 16px 16px;border-top:1px solid var(--svc-border)}',
      'textarea,input{width:100%;min-width:0;padding:10px 12px;border:1px solid #8c8f94;border-radius:12px;font:inherit;font-weight:400;color:inherit;background:#fff;resize:none}',
      'textarea:focus-visible,input:focus-visible{outline:2px solid var(--svc-accent);outline-offset:0;border-color:var(--svc-accent)}',
      'textarea:disabled{background:#f6f7f7;color:var(--svc-muted)}',
      '.send{flex:none;height:44px;padding:0 16px;border:0;border-radius:12px;background:var(--svc-accent);color:var(--svc-on-accent);font-weight:600}',
      '.send:disabled,.send[aria-disabled="true"]{opacity:.6;cursor:default}',
      '.handoff{display:flex;flex-direction:column;gap:10px;padding:12px 16px 16px;border-top:1px solid var(--svc-border);overflow-y:auto;max-height:60%}',
      '.handoff p{margin:0;color:var(--svc-muted);font-size:14px}',
      '.field{display:flex;flex-direction:column;gap:4px;font-size:14px;font-weight:600}',
      '.actions{display:flex;gap:8px;flex-wrap:wrap}',
      '.actions .link{margin:0;padding:10px 16px;border-radius:12px;border-color:#8c8f94;color:var(--svc-text)}',
      '.sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}',
      '@media ' + PHONE + '{.panel{inset:0;width:100%;height:100%;border-radius:0}.launcher[aria-expanded="true"]{display:none}}',
    ].join('\n');
  }

  /* adoptedStyleSheets where the browser has them (not subject to a page's style-src), else a <style> element. */
  function applyStyles(root, text) {
    if ('adoptedStyleSheets' in root && window.CSSStyleSheet && CSSStyleSheet.prototype.replaceSync) {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      root.adoptedStyleSheets = [sheet];
    } else {
      root.appendChild(el('style', { text: text }));
    }
  }

  function avatarNode(config) {
    var url = safeUrl(config.avatar_url);
    if (url) return el('img', { class: 'avatar', src: url, alt: '' });
    return el('span', { class: 'avatar', 'aria-hidden': 'true', text: Array.from(config.name || 'H')[0].toUpperCase() });
  }

  function sourceList(sources) {
    var links = (sources || []).map(function (s) {
      var url = safeUrl(s.url);
      return url ? el('li', {}, [el('a', { href: url, target: '_blank', rel: 'noopener noreferrer', text: s.title || url })]) : null;
    }).filter(Boolean);
    if (!links.length) return null;
    return el('div', { class: 'sources svc-chat-sources' }, [el('p', { text: t('sources') }), el('ul', {}, links)]);
  }

  /* ---- the widget ---- */

  function Widget(config) {
    this.config = config;
    this.saved = loadThread();
    this.busy = false;
    this.unread = 0;
    this.build();
  }

  Widget.prototype.build = function () {
    var c = this.config;
    var self = this;
    var name = c.name || 'Help';
    this.host = el('svc-chat', { 'data-svc-chat': '' });
    var root = this.host.attachShadow({ mode: 'open' });
    applyStyles(root, css(/^#[0-9a-f]{6}$/i.test(c.color || '') ? c.color : '#2271b1'));
    this.badge = el('span', { class: 'badge', hidden: true });
    this.launcher = el('button', { type: 'button', class: 'launcher svc-chat-launcher', 'aria-expanded': 'false', 'aria-controls': 'svc-chat-panel', on: { click: function () { self.toggle(); } } }, [
      el('span', { class: 'launcher-icon', 'aria-hidden': 'true' }), el('span', { class: 'launcher-name', text: name }), this.badge,
    ]);
    this.log = el('div', { class: 'log svc-chat-log', role: 'log', 'aria-live': 'off', 'aria-label': name, tabindex: '0', on: { scroll: function () { if (self.atBottom()) self.jump.hidden = true; } } });
    this.jump = el('button', { type: 'button', class: 'jump', hidden: true, text: t('new_message') + ' ↓', on: { click: function () { self.toNewest(); } } });
    this.input = el('textarea', { id: 'svc-chat-input', rows: '1', maxlength: '4000', placeholder: c.placeholder || '', 'aria-label': t('question'),
      on: { keydown: function (e) { if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); self.ask(); } } } });
    this.send = el('button', { type: 'submit', class: 'send', text: t('send') });
    this.composer = el('form', { class: 'composer svc-chat-form', on: { submit: function (e) { e.preventDefault(); self.ask(); } } }, [this.input, this.send]);
    this.status = el('p', { class: 'status svc-chat-status', role: 'status' });
    this.handoffButton = c.handoff ? el('button', { type: 'button', class: 'offer svc-chat-handoff', text: c.handoff_offer || t('offer'), on: { click: function () { self.showHandoff(); } } }) : null;
    this.announcer = el('div', { class: 'sr', 'aria-live': 'polite' });
    this.closeButton = el('button', { type: 'button', class: 'close', 'aria-label': t('close'), text: '×', on: { click: function () { self.close(); } } });
    this.panel = el('div', { id: 'svc-chat-panel', class: 'panel svc-chat-panel', role: 'dialog', 'aria-labelledby': 'svc-chat-title', hidden: true,
      on: { keydown: function (e) { self.onKey(e); } } }, [
      el('div', { class: 'header' }, [avatarNode(c), el('div', { class: 'titles' }, [el('h2', { id: 'svc-chat-title', text: name }), el('p', { text: t('subtitle') })]), this.closeButton]),
      el('div', { class: 'body' }, [this.log, this.jump]),
      this.status, this.composer, this.handoffButton ? el('div', { class: 'footer' }, [this.handoffButton]) : null, this.announcer,
    ]);
    root.appendChild(this.launcher);
    root.appendChild(this.panel);
    document.body.appendChild(this.host);
    this.bubble('assistant', c.greeting || '');
    setInterval(function () { self.refreshTimes(); }, 60000);
  };

  /* Escape closes. On a phone the panel covers the page, so Tab goes round inside it (the page behind is out of sight). */
  Widget.prototype.onKey = function (e) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      this.close();
      return;
    }
    if (e.key !== 'Tab' || !window.matchMedia(PHONE).matches) return;
    var focusable = Array.prototype.filter.call(this.panel.querySelectorAll('button, textarea, input, a[href], [tabindex="0"]'), function (node) {
      return !node.disabled && node.getClientRects().length > 0;
    });
    var first = focusable[0];
    var last = focusable[focusable.length - 1];
    var active = this.host.shadowRoot.activeElement;
    if (e.shiftKey && active === first) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && active === last) { e.preventDefault(); first.focus(); }
  };

  Widget.prototype.toggle = function () {
    if (this.panel.hidden) this.open();
    else this.close();
  };

  Widget.prototype.open = function () {
    this.panel.hidden = false;
    this.launcher.setAttribute('aria-expanded', 'true');
    this.setUnread(0);
    this.scrollToEnd();
    if (!this.restored) {
      this.restored = true;
      this.restore();
    }
    this.focusInPanel();
  };

  /* Into the panel: the question field, or after a handoff the ticket. */
  Widget.prototype.focusInPanel = function () {
    if (this.ticketCard) this.ticketCard.focus();
    else if (this.handoffForm) this.handoffForm.querySelector('input').focus();
    else this.input.focus();
  };

  Widget.prototype.close = function () {
    this.panel.hidden = true;
    this.launcher.setAttribute('aria-expanded', 'false');
    this.launcher.focus();
  };

  Widget.prototype.setUnread = function (n) {
    this.unread = n;
    /* The launcher's name is its text: "Help, 2 new" (the comma for screen readers only). */
    this.badge.textContent = '';
    if (n) this.badge.append(el('span', { class: 'sr', text: ', ' }), t('unread', { n: n }));
    this.badge.hidden = !n;
  };

  Widget.prototype.atBottom = function () {
    return this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight <= BOTTOM_SLACK;
  };

  Widget.prototype.scrollToEnd = function () {
    this.log.scrollTop = this.log.scrollHeight;
  };

  /* The "new message" control: down to the newest message, which takes the focus (the control goes away). */
  Widget.prototype.toNewest = function () {
    var messages = this.log.querySelectorAll('.msg');
    this.scrollToEnd();
    this.jump.hidden = true;
    if (messages.length) messages[messages.length - 1].focus({ preventScroll: true });
  };

  /* Changes the log, then follows the newest text if the reader was at the bottom; else offers to jump to it. */
  Widget.prototype.grow = function (change) {
    var follow = this.atBottom();
    var result = change();
    if (follow) this.scrollToEnd();
    else this.jump.hidden = false;
    return result;
  };

  /* After a reload: the stored conversation again, or a new one when it is gone. */
  Widget.prototype.restore = async function () {
    if (!this.saved) return;
    var self = this;
    var loading = this.grow(function () { return self.log.appendChild(el('p', { class: 'loading', role: 'status', text: t('loading') })); });
    try {
      var res = await call('GET', 'chat/threads/' + encodeURIComponent(this.saved.thread), undefined, this.saved.token);
      var conversation = await res.json();
      loading.remove();
      conversation.messages.forEach(function (m) { self.bubble(m.role, m.content, m.sources, m.created_at); });
      if (conversation.handed_off) this.handedOff(conversation.ticket_id, false);
      this.scrollToEnd();
    } catch (e) {
      loading.remove();
      if (e.status === 404) {
        this.saved = null;
        saveThread(null);
        return;
      }
      this.notice(t('load_error') + ' ' + (e.message || ''), function () { self.restored = true; self.restore(); });
    }
  };

  Widget.prototype.bubble = function (role, text, sources, createdAt) {
    var self = this;
    var who = role === 'visitor' ? t('you') : (this.config.name || 'Help');
    /* dir=auto: each message reads in its own direction (English on a right-to-left page, Arabic on a left-to-right one). */
    var body = el('p', { class: 'text svc-chat-text', dir: 'auto', text: text || '' });
    var bubble = el('div', { class: 'bubble' }, [body, sourceList(sources)]);
    var meta = el('div', { class: 'meta' }, [el('span', { class: 'svc-chat-who', text: who })]);
    var node = el('div', { class: 'msg msg-' + role + ' svc-chat-message svc-chat-' + role, 'data-role': role, tabindex: '-1' }, [
      role === 'assistant' ? avatarNode(this.config) : null,
      el('div', { class: 'stack' }, [bubble, meta]),
    ]);
    this.stamp(meta, createdAt);
    this.grow(function () { self.log.appendChild(node); });
    return { node: node, body: body, bubble: bubble, meta: meta };
  };

  Widget.prototype.stamp = function (meta, iso) {
    var time = iso ? timeNode(iso) : null;
    if (!time) return;
    meta.appendChild(document.createTextNode(' · '));
    meta.appendChild(time);
  };

  Widget.prototype.refreshTimes = function () {
    Array.prototype.forEach.call(this.log.querySelectorAll('time'), function (node) { node.textContent = relativeTime(new Date(node.getAttribute('datetime'))); });
  };

  /* An error said in words, with a button to try again. */
  Widget.prototype.notice = function (text, retry) {
    var self = this;
    var node = el('div', { class: 'notice', role: 'alert' }, [el('span', { text: text })]);
    if (retry) node.appendChild(el('button', { type: 'button', text: t('retry'), on: { click: function () { node.remove(); self.input.focus(); retry(); } } }));
    this.grow(function () { self.log.appendChild(node); });
    return node;
  };

  Widget.prototype.say = function (text) {
    this.status.textContent = text;
  };

  Widget.prototype.ask = async function (again) {
    var question = again || this.input.value.trim();
    if (!question || this.busy || this.frozen) return;
    if (!this.saved) {
      this.saved = { thread: newUuid(), token: randomHex(32) };
      saveThread(this.saved);
    }
    var self = this;
    /* aria-disabled, not disabled: a disabled button would drop the focus (and Escape with it) to the page. */
    this.busy = true;
    this.send.setAttribute('aria-disabled', 'true');
    this.say('');
    if (!again) {
      this.input.value = '';
      this.bubble('visitor', question, null, new Date().toISOString());
    }
    var answer = this.bubble('assistant', '');
    var typing = el('span', { class: 'typing', role: 'img', 'aria-label': t('writing') }, [el('i'), el('i'), el('i')]);
    answer.bubble.insertBefore(typing, answer.body);
    answer.node.setAttribute('aria-busy', 'true');
    var failure = null;
    var reply = null;
    try {
      var res = await call('POST', 'chat/messages', {
        thread: this.saved.thread, token: this.saved.token, message: question, stream: true,
        page_url: window.location.href.slice(0, 2048), page_title: document.title.slice(0, 300),
      });
      await readEvents(res, function (name, data) {
        if (!data) return;
        if (name === 'delta') self.grow(function () { typing.remove(); answer.body.textContent += data.text; });
        if ((name === 'done' || name === 'error') && data.reply) reply = data.reply;
        if (name === 'error') failure = data;
        if (name === 'done' && data.handoff_offered && self.handoffButton) self.say(t('offer'));
      });
    } catch (e) {
      failure = e || {};
    }
    typing.remove();
    answer.node.removeAttribute('aria-busy');
    this.busy = false;
    this.send.removeAttribute('aria-disabled');
    this.finish(answer, reply, failure, question);
  };

  /* The stored answer replaces the streamed text; the finished answer is announced once (or takes the focus). */
  Widget.prototype.finish = function (answer, reply, failure, question) {
    var self = this;
    if (reply && reply.content) {
      this.grow(function () {
        answer.body.textContent = reply.content;
        var list = sourceList(reply.sources);
        if (list) answer.bubble.appendChild(list);
        self.stamp(answer.meta, reply.created_at);
      });
    } else {
      answer.node.remove();
    }
    if (failure) {
      if (failure.code === 'svc_chat_handed_off') return this.say(failure.message);
      this.notice((reply && reply.content ? t('cut_short') + ' ' : '') + (failure.message || t('network_error')), function () { self.ask(question); });
    }
    if (!reply || !reply.content) return;
    if (this.panel.hidden) this.setUnread(this.unread + 1);
    /* Still in the question field (or on Send): the answer takes the focus, and is read from there. */
    if (!this.panel.hidden && this.composer.contains(this.host.shadowRoot.activeElement)) answer.node.focus();
    else this.announcer.textContent = (this.config.name || 'Help') + ': ' + reply.content;
  };

  Widget.prototype.showHandoff = function () {
    if (this.handoffForm) return this.handoffForm.querySelector('input').focus();
    if (!this.saved) return this.say(t('ask_first'));
    var self = this;
    var field = function (id, label, input) {
      input.id = id;
      return el('label', { class: 'field', for: id }, [label, input]);
    };
    var email = el('input', { type: 'email', required: true, autocomplete: 'email' });
    var name = el('input', { type: 'text', autocomplete: 'name', maxlength: '200' });
    var note = el('textarea', { rows: '2', maxlength: '4000' });
    this.handoffForm = el('form', { class: 'handoff svc-chat-handoff-form', on: { submit: function (e) { e.preventDefault(); self.handOff(email, name, note); } } }, [
      el('p', { text: t('handoff_intro') }),
      field('svc-chat-email', t('email'), email),
      field('svc-chat-name', t('name'), name),
      field('svc-chat-note', t('note'), note),
      el('div', { class: 'actions' }, [
        el('button', { type: 'submit', class: 'send', text: t('handoff_send') }),
        el('button', { type: 'button', class: 'link', text: t('cancel'), on: { click: function () { self.hideHandoff(); self.input.focus(); } } }),
      ]),
    ]);
    this.composer.hidden = true;
    this.handoffButton.hidden = true;
    this.say('');
    this.panel.insertBefore(this.handoffForm, this.composer);
    email.focus();
  };

  Widget.prototype.hideHandoff = function () {
    if (this.handoffForm) this.handoffForm.remove();
    this.handoffForm = null;
    this.composer.hidden = false;
    this.handoffButton.hidden = this.frozen;
  };

  Widget.prototype.handOff = async function (email, name, note) {
    try {
      var res = await call('POST', 'chat/handoff', { thread: this.saved.thread, token: this.saved.token, email: email.value.trim(), name: name.value.trim(), note: note.value.trim() });
      var done = await res.json();
      this.hideHandoff();
      this.handedOff(done.ticket_id, true);
    } catch (err) {
      this.say(err.message);
      email.setAttribute('aria-invalid', 'true');
      email.focus();
    }
  };

  /* The conversation is a ticket now: the question field is closed, and the ticket takes the focus. */
  Widget.prototype.handedOff = function (ticketId, now) {
    var self = this;
    this.frozen = true;
    this.input.disabled = true;
    this.send.disabled = true;
    if (this.handoffButton) this.handoffButton.hidden = true;
    this.ticketCard = el('div', { class: 'ticket svc-chat-ticket', tabindex: '-1' }, [el('strong', { text: t('handed_off') }), el('span', { text: t('ticket', { ticket: ticketId }) })]);
    this.grow(function () { self.log.appendChild(self.ticketCard); });
    this.say(t('status_ticket', { ticket: ticketId }));
    if (now) this.ticketCard.focus();
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
