/*
 * Understudy form service: the browser side of `.frm-form` forms (plain JS, no build step).
 *
 * A submit is sent by AJAX to frm_js_vars.ajax_url (admin-ajax.php, action `frm_form_submit`) and
 * reported with bubbling CustomEvents on the form element, in this order:
 *   frm-submit     before the request (cancelable: preventDefault() stops the submit); detail {form_id}
 *   frm-submitted  after the answer, whatever it was;        detail {form_id, response}
 *   frm-success    the answer's message.type is "success";   detail {form_id, response}
 *   frm-error      any other answer;                          detail {form_id, response}
 *   frm-message    once the message is on screen;             detail {form_id, response, message}
 * The message is shown with role="alert" and receives focus. On success the form is reset, its fields
 * are hidden when the answer says `hide_form`, and the browser goes to `redirect_url` when there is one.
 * On error the fields named in `response.fields` get aria-invalid="true". The script asks for those
 * (`_frm_detail=1`): without it the server answers errors as the PHP plugin does, `{message}` only.
 * Forms are found by event delegation, so forms inserted later (fetched fragments) work too.
 */
(function () {
  'use strict';

  var BUSY_CLASS = 'frm-form--submitting';
  var ERROR_CLASS = 'frm-field-error';
  var FALLBACK_ERROR = 'Oops. An error occurred.';

  function ajaxUrl() {
    var vars = window.frm_js_vars;
    return vars && vars.ajax_url ? vars.ajax_url : '/wp-admin/admin-ajax.php';
  }

  function emit(form, name, detail, cancelable) {
    return form.dispatchEvent(new CustomEvent(name, { bubbles: true, cancelable: Boolean(cancelable), detail: detail }));
  }

  function formIdOf(form) {
    var input = form.querySelector('input[name="_frm_form_id"]');
    return input ? Number(input.value) : 0;
  }

  function messagesArea(form) {
    var area = form.querySelector('.frm-messages');
    if (!area) {
      area = document.createElement('div');
      area.className = 'frm-messages';
      form.appendChild(area);
    }
    return area;
  }

  function clearState(form) {
    var area = form.querySelector('.frm-messages');
    if (area) area.textContent = '';
    Array.prototype.forEach.call(form.querySelectorAll('[aria-invalid="true"]'), function (field) {
      field.removeAttribute('aria-invalid');
      field.classList.remove(ERROR_CLASS);
    });
  }

  /* `address.city` (the server's dotted form) names the field `address[city]`; `tags` may be `tags[]`. */
  function fieldMatches(fieldName, name) {
    var bracketed = name.replace(/\.([^.]+)/g, '[$1]');
    return fieldName === name || fieldName === bracketed || fieldName === name + '[]' || fieldName === bracketed + '[]';
  }

  function markFields(form, names) {
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name) return;
      for (var i = 0; i < names.length; i++) {
        if (fieldMatches(field.name, String(names[i]))) {
          field.setAttribute('aria-invalid', 'true');
          field.classList.add(ERROR_CLASS);
          return;
        }
      }
    });
  }

  function showMessage(form, message) {
    var element = document.createElement('div');
    element.className = 'frm-message frm-message-' + (message.type === 'success' ? 'success' : 'error');
    element.setAttribute('role', 'alert');
    element.tabIndex = -1;
    element.textContent = String(message.text || '');
    messagesArea(form).appendChild(element);
    return element;
  }

  function hideFields(form) {
    var wrap = form.querySelector('.frm-fields-wrap');
    if (!wrap) return;
    wrap.hidden = true;
    wrap.style.display = 'none'; /* a theme's `display` rule would otherwise beat [hidden] */
  }

  /* Only web addresses are followed: a redirect can never run script in this page. */
  function isWebAddress(url) {
    try {
      var protocol = new URL(url, window.location.href).protocol;
      return protocol === 'http:' || protocol === 'https:';
    } catch (e) {
      return false;
    }
  }

  function request(form) {
    var body = new FormData(form);
    body.set('action', 'frm_form_submit');
    /* Asks error answers to add `error` and `fields` (a `_` field: never stored). */
    body.set('_frm_detail', '1');
    return fetch(ajaxUrl(), {
      method: 'POST',
      body: body,
      credentials: 'same-origin',
      /* Only a CORS-safelisted header: a page on another origin of the site needs no preflight. */
      headers: { Accept: 'application/json' },
    })
      .then(function (res) { return res.json(); })
      .then(function (response) {
        if (!response || !response.message || typeof response.message.text !== 'string') throw new Error('unexpected answer');
        return response;
      })
      .catch(function () {
        var text = form.getAttribute('data-message-error') || FALLBACK_ERROR;
        return { message: { type: 'error', text: text }, error: 'request_failed' };
      });
  }

  function handleResponse(form, formId, response) {
    form.classList.remove(BUSY_CLASS);
    form.removeAttribute('aria-busy');
    var detail = { form_id: formId, response: response };
    emit(form, 'frm-submitted', detail);
    var success = response.message.type === 'success';
    if (success) {
      emit(form, 'frm-success', detail);
      form.reset();
      if (response.hide_form) hideFields(form);
    } else {
      markFields(form, Array.isArray(response.fields) ? response.fields : []);
      emit(form, 'frm-error', detail);
    }
    var element = showMessage(form, response.message);
    emit(form, 'frm-message', { form_id: formId, response: response, message: response.message });
    element.focus();
    if (success && response.redirect_url && isWebAddress(response.redirect_url)) window.location.assign(response.redirect_url);
  }

  function submit(form) {
    if (form.classList.contains(BUSY_CLASS)) return;
    var formId = formIdOf(form);
    clearState(form);
    if (!emit(form, 'frm-submit', { form_id: formId }, true)) return;
    form.classList.add(BUSY_CLASS);
    form.setAttribute('aria-busy', 'true');
    request(form).then(function (response) { handleResponse(form, formId, response); });
  }

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.classList.contains('frm-form')) return;
    event.preventDefault();
    submit(form);
  });
})();
