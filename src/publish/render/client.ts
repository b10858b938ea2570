import { createHash } from 'node:crypto';

/**
 * The site's only script, plain ES2017 with no dependencies and nothing loaded from anywhere.
 * It is included in `<head>` without `defer` (it is small and cached by hash), so the stored
 * theme is applied before the first paint; everything else waits for the DOM. Pages work
 * without it: tabs show stacked, the tree shows the open branch, dropdowns are `<details>`.
 *
 * It inserts data (search results) only through `textContent` and DOM properties, never as
 * HTML, and follows only http(s) result links.
 */
export const SITE_JS = `(function () {
  'use strict';
  var doc = document;
  var root = doc.documentElement;
  var THEME_KEY = 'quire-theme';
  root.classList.add('js');

  function stored() {
    try { return window.localStorage.getItem(THEME_KEY); } catch (e) { return null; }
  }
  if (root.hasAttribute('data-theme-toggle')) {
    var saved = stored();
    if (saved === 'light' || saved === 'dark') root.setAttribute('data-theme', saved);
  }

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }
  function systemDark() {
    return !!(window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  }
  function currentTheme() {
    var theme = root.getAttribute('data-theme');
    if (theme === 'light' || theme === 'dark') return theme;
    return systemDark() ? 'dark' : 'light';
  }

  function initTheme() {
    var button = doc.querySelector('[data-theme-button]');
    if (!button) return;
    function label() {
      button.setAttribute('aria-label', currentTheme() === 'dark' ? 'Switch to light theme' : 'Switch to dark theme');
    }
    button.hidden = false;
    label();
    button.addEventListener('click', function () {
      var next = currentTheme() === 'dark' ? 'light' : 'dark';
      root.setAttribute('data-theme', next);
      try { window.localStorage.setItem(THEME_KEY, next); } catch (e) { /* private mode */ }
      label();
    });
    if (window.matchMedia) {
      var query = window.matchMedia('(prefers-color-scheme: dark)');
      if (query.addEventListener) query.addEventListener('change', label);
    }
  }

  function initTabs() {
    each(doc.querySelectorAll('[data-tabs]'), function (group) {
      var list = group.querySelector('[role="tablist"]');
      if (!list) return;
      var tabs = Array.prototype.slice.call(list.querySelectorAll('[role="tab"]'));
      function select(index, focus) {
        tabs.forEach(function (tab, i) {
          var on = i === index;
          tab.setAttribute('aria-selected', on ? 'true' : 'false');
          tab.tabIndex = on ? 0 : -1;
          var panel = doc.getElementById(tab.getAttribute('aria-controls'));
          if (panel) panel.hidden = !on;
        });
        if (focus) tabs[index].focus();
      }
      list.hidden = false;
      group.classList.add('enhanced');
      select(0, false);
      tabs.forEach(function (tab, i) {
        tab.addEventListener('click', function () { select(i, false); });
        tab.addEventListener('keydown', function (event) {
          var n = tabs.length;
          var to = -1;
          if (event.key === 'ArrowRight') to = (i + 1) % n;
          else if (event.key === 'ArrowLeft') to = (i - 1 + n) % n;
          else if (event.key === 'Home') to = 0;
          else if (event.key === 'End') to = n - 1;
          if (to >= 0) { event.preventDefault(); select(to, true); }
        });
      });
    });
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var area = doc.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      doc.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = doc.execCommand('copy'); } catch (e) { ok = false; }
      doc.body.removeChild(area);
      if (ok) resolve(); else reject(new Error('copy failed'));
    });
  }

  function initCopy() {
    each(doc.querySelectorAll('[data-copy]'), function (button) {
      var label = button.querySelector('.copy-label');
      var timer = 0;
      button.hidden = false;
      button.addEventListener('click', function () {
        var block = button.closest('.code-block, .prompt');
        var code = block && block.querySelector('pre code');
        if (!code) return;
        copyText(code.textContent).then(function () {
          button.classList.add('copied');
          if (label) label.textContent = 'Copied';
          clearTimeout(timer);
          timer = setTimeout(function () {
            button.classList.remove('copied');
            if (label) label.textContent = 'Copy';
          }, 2000);
        }, function () { /* nothing to do: the text stays selectable */ });
      });
    });
  }

  function safeUrl(href) {
    try {
      var url = new URL(href, window.location.href);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
    } catch (e) { return null; }
  }

  function initSearch() {
    var form = doc.querySelector('[data-search]');
    if (!form) return;
    var endpoint = form.getAttribute('data-search');
    var input = form.querySelector('input');
    var panel = form.querySelector('.search-panel');
    var list = form.querySelector('.search-results');
    var status = form.querySelector('.search-status');
    var live = form.querySelector('.search-live');
    var timer = 0;
    var sequence = 0;
    var active = -1;
    var items = [];

    function setOpen(open) {
      panel.hidden = !open;
      input.setAttribute('aria-expanded', open ? 'true' : 'false');
      if (!open) setActive(-1);
    }
    function setActive(index) {
      if (items[active]) items[active].setAttribute('aria-selected', 'false');
      active = index;
      if (items[active]) {
        items[active].setAttribute('aria-selected', 'true');
        input.setAttribute('aria-activedescendant', items[active].id);
        items[active].scrollIntoView({ block: 'nearest' });
      } else {
        input.removeAttribute('aria-activedescendant');
      }
    }
    function say(message) {
      status.textContent = message;
      status.hidden = !message;
      if (live) live.textContent = message;
    }
    function show(results) {
      list.textContent = '';
      items = [];
      active = -1;
      (Array.isArray(results) ? results : []).slice(0, 20).forEach(function (result) {
        if (!result || typeof result.title !== 'string' || typeof result.href !== 'string') return;
        var href = safeUrl(result.href);
        if (!href) return;
        var item = doc.createElement('li');
        item.id = 'SearchResult' + items.length;
        item.setAttribute('role', 'option');
        item.setAttribute('aria-selected', 'false');
        var link = doc.createElement('a');
        link.href = href;
        link.tabIndex = -1;
        var title = doc.createElement('span');
        title.className = 'search-result-title';
        title.textContent = result.title;
        link.appendChild(title);
        if (typeof result.snippet === 'string' && result.snippet) {
          var snippet = doc.createElement('span');
          snippet.className = 'search-result-snippet';
          snippet.textContent = result.snippet;
          link.appendChild(snippet);
        }
        item.appendChild(link);
        list.appendChild(item);
        items.push(item);
      });
      say(items.length ? '' : 'No results');
      if (live) live.textContent = items.length === 1 ? '1 result' : (items.length ? items.length + ' results' : 'No results');
      setOpen(true);
    }
    function search() {
      var query = input.value.trim();
      var mine = ++sequence;
      if (!query) { setOpen(false); return; }
      var url = endpoint + (endpoint.indexOf('?') >= 0 ? '&' : '?') + 'q=' + encodeURIComponent(query);
      fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
        .then(function (response) {
          if (!response.ok) throw new Error('search failed');
          return response.json();
        })
        .then(function (body) { if (mine === sequence) show(body && body.results); })
        .catch(function () {
          if (mine !== sequence) return;
          list.textContent = '';
          items = [];
          say('Search is not available right now');
          setOpen(true);
        });
    }
    function go(index) {
      var link = items[index] && items[index].querySelector('a');
      if (link) window.location.href = link.href;
    }

    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(search, 200);
    });
    input.addEventListener('focus', function () { if (items.length && input.value.trim()) setOpen(true); });
    input.addEventListener('keydown', function (event) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        if (!items.length) return;
        event.preventDefault();
        if (panel.hidden) setOpen(true);
        var step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((active + step + items.length) % items.length);
      } else if (event.key === 'Enter') {
        event.preventDefault();
        go(active >= 0 ? active : 0);
      } else if (event.key === 'Escape') {
        if (!panel.hidden) { event.preventDefault(); setOpen(false); }
        else if (input.value) { input.value = ''; }
      }
    });
    form.addEventListener('submit', function (event) { event.preventDefault(); });
    doc.addEventListener('click', function (event) { if (!form.contains(event.target)) setOpen(false); });
    doc.addEventListener('keydown', function (event) {
      var target = event.target;
      var typing = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      if ((event.key === 'k' && (event.metaKey || event.ctrlKey)) || (event.key === '/' && !typing)) {
        event.preventDefault();
        input.focus();
        input.select();
      }
    });
  }

  /** Buttons of documents: "search" (and "ask") open the search box with their query; "select" picks tabs. */
  function initActions() {
    var input = doc.querySelector('[data-search] input');
    each(doc.querySelectorAll('button[data-action]'), function (button) {
      var action = button.getAttribute('data-action');
      if (action === 'search') {
        if (!input) { button.hidden = true; return; }
        button.addEventListener('click', function () {
          input.value = button.getAttribute('data-query') || '';
          input.focus();
          input.dispatchEvent(new Event('input', { bubbles: true }));
        });
      } else if (action === 'select') {
        var slug = button.getAttribute('data-slug');
        button.addEventListener('click', function () {
          var first = null;
          each(doc.querySelectorAll('[role="tab"][data-slug]'), function (tab) {
            if (tab.getAttribute('data-slug') !== slug) return;
            tab.click();
            if (!first) first = tab;
          });
          if (first) first.scrollIntoView({ block: 'nearest' });
        });
      }
    });
  }

  /** Annotations show on hover and focus by CSS; a click pins one open, Escape hides it. */
  function initAnnotations() {
    var notes = doc.querySelectorAll('.annotation');
    if (!notes.length) return;
    function set(note, open) {
      note.classList.toggle('open', open);
      var trigger = note.querySelector('.annotation-trigger');
      if (trigger) trigger.setAttribute('aria-expanded', open ? 'true' : 'false');
    }
    each(notes, function (note) {
      var trigger = note.querySelector('.annotation-trigger');
      if (!trigger) return;
      trigger.setAttribute('aria-expanded', 'false');
      trigger.setAttribute('aria-controls', trigger.getAttribute('aria-describedby') || '');
      trigger.addEventListener('click', function () {
        note.classList.remove('dismissed');
        set(note, !note.classList.contains('open'));
      });
      note.addEventListener('mouseleave', function () { note.classList.remove('dismissed'); });
      note.addEventListener('focusout', function () { note.classList.remove('dismissed'); });
    });
    doc.addEventListener('click', function (event) {
      each(doc.querySelectorAll('.annotation.open'), function (note) {
        if (!note.contains(event.target)) set(note, false);
      });
    });
    doc.addEventListener('keydown', function (event) {
      if (event.key !== 'Escape') return;
      each(notes, function (note) {
        if (note.classList.contains('open') || note.contains(doc.activeElement) || note.matches(':hover')) {
          set(note, false);
          note.classList.add('dismissed');
        }
      });
    });
  }

  function initTree() {
    each(doc.querySelectorAll('.tree-toggle'), function (button) {
      button.hidden = false;
      button.addEventListener('click', function () {
        var children = doc.getElementById(button.getAttribute('aria-controls'));
        var open = button.getAttribute('aria-expanded') !== 'true';
        button.setAttribute('aria-expanded', open ? 'true' : 'false');
        if (children) children.hidden = !open;
      });
    });
  }

  function initMenu() {
    var button = doc.querySelector('.menu-toggle');
    var sidebar = doc.getElementById('Sidebar');
    if (!button || !sidebar) return;
    function set(open) {
      root.classList.toggle('sidebar-open', open);
      button.setAttribute('aria-expanded', open ? 'true' : 'false');
      if (open) {
        var first = sidebar.querySelector('.tree [aria-current="page"]') || sidebar.querySelector('[data-close-sidebar]');
        if (first) first.focus();
      }
    }
    button.addEventListener('click', function () { set(!root.classList.contains('sidebar-open')); });
    each(doc.querySelectorAll('[data-close-sidebar]'), function (el) {
      el.addEventListener('click', function () { set(false); button.focus(); });
    });
    doc.addEventListener('keydown', function (event) {
      if (event.key === 'Escape' && root.classList.contains('sidebar-open')) { set(false); button.focus(); }
    });
  }

  function initDropdowns() {
    doc.addEventListener('click', function (event) {
      each(doc.querySelectorAll('details.dropdown[open]'), function (details) {
        if (!details.contains(event.target)) details.open = false;
      });
    });
    doc.addEventListener('keydown', function (event) {
      if (event.key !== 'Escape') return;
      each(doc.querySelectorAll('details.dropdown[open]'), function (details) {
        details.open = false;
        var summary = details.querySelector('summary');
        if (summary && details.contains(doc.activeElement)) summary.focus();
      });
    });
  }

  function initToc() {
    var links = doc.querySelectorAll('.toc a[href^="#"]');
    if (!links.length || !window.IntersectionObserver) return;
    var headings = [];
    var linkOf = {};
    each(links, function (link) {
      var id = decodeURIComponent(link.getAttribute('href').slice(1));
      var heading = doc.getElementById(id);
      if (heading) { headings.push(heading); linkOf[id] = link; }
    });
    var visible = {};
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) { visible[entry.target.id] = entry.isIntersecting; });
      for (var i = 0; i < headings.length; i++) {
        if (visible[headings[i].id]) {
          each(links, function (link) { link.removeAttribute('aria-current'); });
          linkOf[headings[i].id].setAttribute('aria-current', 'location');
          return;
        }
      }
    }, { rootMargin: '-72px 0px -55% 0px' });
    headings.forEach(function (heading) { observer.observe(heading); });
  }

  /** Opens the expandables and selects the tabs that hide the element the URL points at. */
  function revealTarget() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id && doc.getElementById(id);
    if (!target) return;
    var revealed = false;
    for (var node = target.parentElement; node; node = node.parentElement) {
      if (node.tagName === 'DETAILS' && !node.open) { node.open = true; revealed = true; }
      if (node.getAttribute('role') === 'tabpanel' && node.hidden) {
        var tab = doc.getElementById(node.getAttribute('aria-labelledby'));
        if (tab) { tab.click(); revealed = true; }
      }
    }
    if (revealed) target.scrollIntoView();
  }

  function start() {
    initTheme();
    initTabs();
    initCopy();
    initSearch();
    initActions();
    initAnnotations();
    initTree();
    initMenu();
    initDropdowns();
    initToc();
    revealTarget();
    window.addEventListener('hashchange', revealTarget);
  }
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', start);
  else start();
})();
`;

/** First 16 hex digits of the script's sha256: put it in the URL for long caching. */
export const SITE_JS_HASH = createHash('sha256').update(SITE_JS).digest('hex').slice(0, 16);
