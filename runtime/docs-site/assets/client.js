/* Wharf docs client: dark mode, search (server API or, in a static export, the shared engine
   over the prebuilt index), copy controls, scroll indicator, mobile menu, hot reload. No inline script
   needed, so the strict Content-Security-Policy holds. Results are built with textContent, excerpts from the engine's escaped HTML. */
(function () {
  'use strict';
  var body = document.body;
  var root = document.documentElement;
  var base = body.getAttribute('data-base') || '';
  var isStatic = body.getAttribute('data-mode') === 'static';

  /* Dark mode */
  var darkAllowed = body.getAttribute('data-dark-mode') !== 'false';
  function storedTheme() { try { return localStorage.getItem('wharf-theme'); } catch (e) { return null; } }
  function applyTheme(theme) { root.setAttribute('data-theme', theme); }
  var prefersDark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
  applyTheme(darkAllowed ? storedTheme() || (prefersDark ? 'dark' : 'light') : 'light');
  /* Diagrams: pages with a ```mermaid block load /_wharf/mermaid.js before this script; draw
     them in the current colour scheme, and again when it changes. */
  var diagrams = document.querySelectorAll('pre.mermaid');
  diagrams.forEach(function (pre) { pre.setAttribute('data-source', pre.textContent); });
  function drawDiagrams() {
    if (!window.mermaid || !diagrams.length) return;
    diagrams.forEach(function (pre) { pre.removeAttribute('data-processed'); pre.textContent = pre.getAttribute('data-source'); });
    window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: root.getAttribute('data-theme') === 'dark' ? 'dark' : 'default' });
    window.mermaid.run({ nodes: diagrams }).catch(function (e) { console.warn('mermaid:', e && e.message); });
  }
  drawDiagrams();
  var toggle = document.getElementById('theme-toggle');
  if (toggle) {
    toggle.addEventListener('click', function () {
      var next = root.getAttribute('data-theme') === 'dark' ? 'light' : 'dark';
      applyTheme(next);
      drawDiagrams();
      try { localStorage.setItem('wharf-theme', next); } catch (e) { /* private mode */ }
    });
  }

  /* Sidebar: open the groups around the current page; mobile menu */
  var current = document.querySelector('.sidebar [aria-current="page"]');
  for (var el = current; el; el = el.parentElement) { if (el.tagName === 'DETAILS') el.open = true; }
  var menu = document.getElementById('menu-toggle');
  if (menu) {
    menu.addEventListener('click', function () {
      var open = body.classList.toggle('nav-open');
      menu.setAttribute('aria-expanded', String(open));
    });
  }

  /* Scroll indicator */
  var bar = document.getElementById('scroll-indicator');
  if (bar) {
    var onScroll = function () {
      var max = document.documentElement.scrollHeight - window.innerHeight;
      bar.style.width = (max > 0 ? Math.min(100, (window.scrollY / max) * 100) : 0) + '%';
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    onScroll();
  }

  /* Copy controls */
  function flash(link, text) {
    var old = link.textContent;
    link.textContent = text;
    setTimeout(function () { link.textContent = old; }, 1500);
  }
  function copy(text, link) {
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(function () { flash(link, 'Copied'); }, function () { flash(link, 'Copy failed'); });
  }
  document.querySelectorAll('[data-copy-raw]').forEach(function (link) {
    link.addEventListener('click', function (event) {
      event.preventDefault();
      fetch(link.href).then(function (r) { return r.text(); }).then(function (text) { copy(text, link); });
    });
  });
  document.querySelectorAll('[data-copy-link]').forEach(function (link) {
    link.addEventListener('click', function (event) { event.preventDefault(); copy(link.href, link); });
  });

  /* Search: the server's /api/search, or in a static export the same engine (/_wharf/search.js)
     over the prebuilt index, so both rank alike. Excerpts arrive HTML-escaped with <mark>s. */
  var input = document.getElementById('search-input');
  var box = document.getElementById('search-results');
  var localEngine = null;
  function loadLocalEngine() {
    if (!localEngine) {
      localEngine = Promise.all([
        import(base + '/_wharf/search.js'),
        fetch(base + '/_wharf/search-index.json').then(function (r) { return r.json(); })
      ]).then(function (parts) { return parts[0].createSearchEngine(parts[1]); });
    }
    return localEngine;
  }
  function normalize(q) { return q.trim().slice(0, 128); }
  function runSearch(q) {
    if (!isStatic) return fetch(base + '/api/search?limit=20&q=' + encodeURIComponent(q)).then(function (r) { return r.ok ? r.json() : []; });
    return loadLocalEngine().then(function (engine) { return engine.search(q, 20).results; });
  }
  var active = -1;
  function links() { return box ? box.querySelectorAll('a') : []; }
  function highlight(i) {
    var all = links();
    if (!all.length) return;
    active = (i + all.length) % all.length;
    all.forEach(function (a, n) { a.classList.toggle('active', n === active); });
  }
  function render(results, q) {
    box.textContent = '';
    active = -1;
    if (!results.length) {
      var none = document.createElement('p');
      none.className = 'search-empty';
      none.textContent = 'No results for "' + q + '"';
      box.appendChild(none);
    }
    results.slice(0, 20).forEach(function (r) {
      var a = document.createElement('a');
      a.href = base + (r.path === '/index' ? '/' : r.path);
      var title = document.createElement('strong');
      title.textContent = r.title;
      var excerpt = document.createElement('span');
      excerpt.className = 'search-excerpt';
      excerpt.innerHTML = r.excerpt; /* escaped by the engine; only <mark> is markup */
      a.appendChild(title);
      a.appendChild(excerpt);
      box.appendChild(a);
    });
    box.hidden = false;
  }
  if (input && box) {
    var timer = null, seq = 0;
    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var q = normalize(input.value);
        if (q.length < 2) { box.hidden = true; box.textContent = ''; return; }
        var mine = ++seq;
        runSearch(q).then(function (results) { if (mine === seq) render(results, q); });
      }, 120);
    });
    input.addEventListener('keydown', function (event) {
      if (event.key === 'ArrowDown') { event.preventDefault(); highlight(active + 1); }
      else if (event.key === 'ArrowUp') { event.preventDefault(); highlight(active - 1); }
      else if (event.key === 'Enter') {
        var target = links()[active < 0 ? 0 : active];
        if (target) window.location.href = target.href;
      } else if (event.key === 'Escape') { box.hidden = true; input.blur(); }
    });
    document.addEventListener('keydown', function (event) {
      if (event.key === '/' && document.activeElement !== input) { event.preventDefault(); input.focus(); }
    });
    document.addEventListener('click', function (event) { if (!box.contains(event.target) && event.target !== input) box.hidden = true; });
  }

  /* Hot reload: the server raises /api/build-version only when content changed */
  if (!isStatic && body.getAttribute('data-hot-reload') === 'true') {
    var seen = Number(body.getAttribute('data-build-version'));
    setInterval(function () {
      fetch(base + '/api/build-version', { cache: 'no-store' }).then(function (r) { return r.json(); }).then(function (data) {
        if (data.version !== seen) window.location.reload();
      }, function () { /* server restarting */ });
    }, 1500);
  }
})();
