// cgp-conformance inspector: the page's one script (docs/inspector.md). The server renders every view; this
// script sends the forms as JSON (with the per-run token), swaps in the HTML the server returns, and listens
// to the event stream (wire lines, suite progress). Every request gives up after a bound: the page never hangs.
(function () {
  'use strict';
  var token = document.querySelector('meta[name="cgp-token"]').content;
  var LIMIT_MS = 60000;

  function $(sel) { return document.querySelector(sel); }

  function request(method, path, body) {
    var ctl = new AbortController();
    var timer = setTimeout(function () { ctl.abort(); }, LIMIT_MS);
    var init = { method: method, headers: { 'X-CGP-Token': token }, signal: ctl.signal };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (res) {
      clearTimeout(timer);
      var type = res.headers.get('content-type') || '';
      var read = type.indexOf('json') >= 0 ? res.json() : res.text();
      return read.then(function (data) {
        if (!res.ok) throw new Error((data && data.error) || ('HTTP ' + res.status + ': ' + data));
        return data;
      });
    }, function (err) {
      clearTimeout(timer);
      throw new Error(err.name === 'AbortError' ? 'no answer from the inspector within ' + LIMIT_MS / 1000 + ' s' : String(err.message || err));
    });
  }

  function notice(message) {
    var list = $('#exchange-list');
    var el = document.createElement('p');
    el.className = 'banner bad ui-error';
    el.textContent = message;
    list.insertBefore(el, list.firstChild);
  }

  function busy(button, on) {
    if (!button) return;
    button.disabled = on;
    button.classList.toggle('busy', on);
  }

  function addExchange(html) {
    var list = $('#exchange-list');
    var hint = list.querySelector('p.hint');
    if (hint) hint.remove();
    list.insertAdjacentHTML('afterbegin', html);
  }

  function formJson(form) {
    var out = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) return;
      if (el.type === 'checkbox') {
        if (!out[el.name]) out[el.name] = [];
        if (el.checked) out[el.name].push(el.value);
      } else out[el.name] = el.value;
    });
    return out;
  }

  document.addEventListener('submit', function (ev) {
    var form = ev.target;
    var button = form.querySelector('button[type="submit"]');
    if (form.id === 'query-form' || form.id === 'raw-form') {
      ev.preventDefault();
      busy(button, true);
      var path = form.id === 'query-form' ? '/api/query' : '/api/raw';
      request('POST', path, formJson(form)).then(function (r) {
        addExchange(r.html);
        $('#connection').innerHTML = r.connection;
      }, function (e) { notice(e.message); }).then(function () { busy(button, false); });
    } else if (form.id === 'connect-form') {
      ev.preventDefault();
      busy(button, true);
      request('POST', '/api/connect', { target: form.elements.target.value }).then(function (r) {
        $('#connection').innerHTML = r.connection;
        $('#query').innerHTML = r.query;
      }, function (e) { notice(e.message); }).then(function () { busy($('#reconnect'), false); });
    }
  });

  document.addEventListener('click', function (ev) {
    var t = ev.target;
    var explainBtn = t.closest('button.explain');
    if (explainBtn) {
      request('GET', '/api/explain?id=' + encodeURIComponent(explainBtn.getAttribute('data-explain'))).then(function (html) {
        $('#explain-body').innerHTML = html;
        $('#explain-dialog').showModal();
      }, function (e) { notice(e.message); });
      return;
    }
    var row = t.closest('tr.frame');
    if (row && !t.closest('input')) {
      var detail = row.nextElementSibling;
      if (detail) detail.hidden = !detail.hidden;
      return;
    }
    if (t.closest('button.verify')) {
      var article = t.closest('article.exchange');
      var picks = Array.prototype.map.call(article.querySelectorAll('input.pick:checked'), function (c) { return Number(c.value); });
      busy(t, true);
      request('POST', '/api/verify', { frames: picks }).then(function (r) { addExchange(r.html); }, function (e) { notice(e.message); }).then(function () { busy(t, false); });
      return;
    }
    if (t.id === 'run-suite') {
      busy(t, true);
      request('POST', '/api/suite', {}).then(function (r) { $('#suite').innerHTML = r.html; }, function (e) { notice(e.message); busy(t, false); });
      return;
    }
    if (t.id === 'cancel-suite') {
      request('POST', '/api/suite/cancel', {}).then(function (r) { $('#suite').innerHTML = r.html; }, function (e) { notice(e.message); });
      return;
    }
    if (t.id === 'copy-ndjson') {
      var text = Array.prototype.map.call(document.querySelectorAll('#wire-body textarea.ndjson'), function (a) { return a.value + '\n'; }).join('');
      var done = function () { t.textContent = 'Copied ' + document.querySelectorAll('#wire-body tr').length + ' lines'; };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, function (e) { notice('copy failed: ' + e); });
      return;
    }
    if (t.id === 'stop') {
      request('POST', '/api/stop', {}).then(function () { $('#live').textContent = 'stopped'; }, function (e) { notice(e.message); });
    }
  });

  var live = $('#live');
  var source = new EventSource('/events?token=' + encodeURIComponent(token));
  source.addEventListener('hello', function () { live.textContent = 'live'; live.className = 'live on'; });
  source.addEventListener('ping', function () { live.textContent = 'live'; live.className = 'live on'; });
  source.addEventListener('ui', function (ev) {
    var msg = JSON.parse(ev.data);
    var el = $(msg.sel);
    if (!el) return;
    if (msg.mode === 'append') el.insertAdjacentHTML('beforeend', msg.html);
    else el.innerHTML = msg.html;
    if (msg.count && $('#suite-count')) $('#suite-count').textContent = msg.count;
  });
  source.addEventListener('bye', function (ev) {
    live.textContent = 'stopped: ' + JSON.parse(ev.data).reason;
    live.className = 'live off';
    source.close();
  });
  source.onerror = function () { live.textContent = 'disconnected'; live.className = 'live off'; };
})();
