/*
 * The site's only script: plain browser JavaScript (ES2020), no dependencies, nothing loaded
 * from anywhere. It is included in `<head>` without `defer` (it is small and cached by hash),
 * so the stored theme is applied before the first paint; everything else waits for the DOM.
 * Pages work without it: tabs show stacked, the tree shows the open branch (a closed branch of
 * a large space links to its page, where it is open), dropdowns are `<details>`.
 *
 * It inserts data (search results) only through `textContent` and DOM properties, never as
 * HTML, and follows only http(s) result links. The one HTML it parses is the site's own page
 * tree, rendered by the same server for the same site and fetched from the same origin (see
 * initTree). It may be inlined in a page, so it never holds the text of a closing script tag
 * or an HTML comment opener.
 */
(() => {
  // biome-ignore lint/suspicious/noRedundantUseStrict: a classic script, not a module: strict only if asked
  'use strict';
  const doc = document;
  const root = doc.documentElement;
  const THEME_KEY = 'quire-theme';
  root.classList.add('js');

  function stored() {
    try {
      return window.localStorage.getItem(THEME_KEY);
    } catch {
      return null;
    }
  }
  if (root.hasAttribute('data-theme-toggle')) {
    const saved = stored();
    if (saved === 'light' || saved === 'dark') root.setAttribute('data-theme', saved);
  }

  function each(list, fn) {
    Array.prototype.forEach.call(list, fn);
  }
  function systemDark() {
    return !!window.matchMedia?.('(prefers-color-scheme: dark)').matches;
  }
  function currentTheme() {
    const theme = root.getAttribute('data-theme');
    if (theme === 'light' || theme === 'dark') return theme;
    return systemDark() ? 'dark' : 'light';
  }

  function initTheme() {
    const button = doc.querySelector('[data-theme-button]');
    if (!button) return;
    const label = () => {
      button.setAttribute(
        'aria-label',
        currentTheme() === 'dark' ? 'Switch to light theme' : 'Switch to dark theme',
      );
    };
    button.hidden = false;
    label();
    button.addEventListener('click', () => {
      const next = currentTheme() === 'dark' ? 'light' : 'dark';
      root.setAttribute('data-theme', next);
      try {
        window.localStorage.setItem(THEME_KEY, next);
      } catch {
        /* private mode */
      }
      label();
    });
    if (window.matchMedia) {
      const query = window.matchMedia('(prefers-color-scheme: dark)');
      if (query.addEventListener) query.addEventListener('change', label);
    }
  }

  function initTabs() {
    each(doc.querySelectorAll('[data-tabs]'), (group) => {
      const list = group.querySelector('[role="tablist"]');
      if (!list) return;
      const tabs = Array.prototype.slice.call(list.querySelectorAll('[role="tab"]'));
      const select = (index, focus) => {
        tabs.forEach((tab, i) => {
          const on = i === index;
          tab.setAttribute('aria-selected', on ? 'true' : 'false');
          tab.tabIndex = on ? 0 : -1;
          const panel = doc.getElementById(tab.getAttribute('aria-controls'));
          if (panel) panel.hidden = !on;
        });
        if (focus) tabs[index].focus();
      };
      list.hidden = false;
      group.classList.add('enhanced');
      select(0, false);
      tabs.forEach((tab, i) => {
        tab.addEventListener('click', () => {
          select(i, false);
        });
        tab.addEventListener('keydown', (event) => {
          const n = tabs.length;
          let to = -1;
          if (event.key === 'ArrowRight') to = (i + 1) % n;
          else if (event.key === 'ArrowLeft') to = (i - 1 + n) % n;
          else if (event.key === 'Home') to = 0;
          else if (event.key === 'End') to = n - 1;
          if (to >= 0) {
            event.preventDefault();
            select(to, true);
          }
        });
      });
    });
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise((resolve, reject) => {
      const area = doc.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      doc.body.appendChild(area);
      area.select();
      let ok = false;
      try {
        ok = doc.execCommand('copy');
      } catch {
        ok = false;
      }
      doc.body.removeChild(area);
      if (ok) resolve();
      else reject(new Error('copy failed'));
    });
  }

  function initCopy() {
    each(doc.querySelectorAll('[data-copy]'), (button) => {
      const label = button.querySelector('.copy-label');
      let timer = 0;
      button.hidden = false;
      button.addEventListener('click', () => {
        const block = button.closest('.code-block, .prompt');
        const code = block?.querySelector('pre code');
        if (!code) return;
        copyText(code.textContent).then(
          () => {
            button.classList.add('copied');
            if (label) label.textContent = 'Copied';
            clearTimeout(timer);
            timer = setTimeout(() => {
              button.classList.remove('copied');
              if (label) label.textContent = 'Copy';
            }, 2000);
          },
          () => {
            /* nothing to do: the text stays selectable */
          },
        );
      });
    });
  }

  function safeUrl(href) {
    try {
      const url = new URL(href, window.location.href);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
    } catch {
      return null;
    }
  }

  function initSearch() {
    const form = doc.querySelector('[data-search]');
    if (!form) return;
    const endpoint = form.getAttribute('data-search');
    const input = form.querySelector('input');
    const panel = form.querySelector('.search-panel');
    const list = form.querySelector('.search-results');
    const status = form.querySelector('.search-status');
    const live = form.querySelector('.search-live');
    let timer = 0;
    let sequence = 0;
    let active = -1;
    let items = [];

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
    function resultItem(result) {
      if (!result || typeof result.title !== 'string' || typeof result.href !== 'string') return null;
      const href = safeUrl(result.href);
      if (!href) return null;
      const item = doc.createElement('li');
      item.id = `SearchResult${items.length}`;
      item.setAttribute('role', 'option');
      item.setAttribute('aria-selected', 'false');
      const link = doc.createElement('a');
      link.href = href;
      link.tabIndex = -1;
      const title = doc.createElement('span');
      title.className = 'search-result-title';
      title.textContent = result.title;
      link.appendChild(title);
      if (typeof result.snippet === 'string' && result.snippet) {
        const snippet = doc.createElement('span');
        snippet.className = 'search-result-snippet';
        snippet.textContent = result.snippet;
        link.appendChild(snippet);
      }
      item.appendChild(link);
      return item;
    }
    function show(results) {
      list.textContent = '';
      items = [];
      active = -1;
      for (const result of (Array.isArray(results) ? results : []).slice(0, 20)) {
        const item = resultItem(result);
        if (!item) continue;
        list.appendChild(item);
        items.push(item);
      }
      say(items.length ? '' : 'No results');
      if (live) {
        live.textContent =
          items.length === 1 ? '1 result' : items.length ? `${items.length} results` : 'No results';
      }
      setOpen(true);
    }
    function search() {
      const query = input.value.trim();
      const mine = ++sequence;
      if (!query) {
        setOpen(false);
        return;
      }
      const url = `${endpoint}${endpoint.indexOf('?') >= 0 ? '&' : '?'}q=${encodeURIComponent(query)}`;
      fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
        .then((response) => {
          if (!response.ok) throw new Error('search failed');
          return response.json();
        })
        .then((body) => {
          if (mine === sequence) show(body?.results);
        })
        .catch(() => {
          if (mine !== sequence) return;
          list.textContent = '';
          items = [];
          say('Search is not available right now');
          setOpen(true);
        });
    }
    function go(index) {
      const link = items[index]?.querySelector('a');
      if (link) window.location.href = link.href;
    }

    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(search, 200);
    });
    input.addEventListener('focus', () => {
      if (items.length && input.value.trim()) setOpen(true);
    });
    input.addEventListener('keydown', (event) => {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        if (!items.length) return;
        event.preventDefault();
        if (panel.hidden) setOpen(true);
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((active + step + items.length) % items.length);
      } else if (event.key === 'Enter') {
        event.preventDefault();
        go(Math.max(active, 0));
      } else if (event.key === 'Escape') {
        if (!panel.hidden) {
          event.preventDefault();
          setOpen(false);
        } else if (input.value) {
          input.value = '';
        }
      }
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
    });
    doc.addEventListener('click', (event) => {
      if (!form.contains(event.target)) setOpen(false);
    });
    doc.addEventListener('keydown', (event) => {
      const target = event.target;
      const typing = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      if ((event.key === 'k' && (event.metaKey || event.ctrlKey)) || (event.key === '/' && !typing)) {
        event.preventDefault();
        input.focus();
        input.select();
      }
    });
  }

  /** Buttons of documents: "search" (and "ask") open the search box with their query; "select" picks tabs. */
  function initActions() {
    const input = doc.querySelector('[data-search] input');
    each(doc.querySelectorAll('button[data-action]'), (button) => {
      const action = button.getAttribute('data-action');
      if (action === 'search') {
        if (!input) {
          button.hidden = true;
          return;
        }
        button.addEventListener('click', () => {
          input.value = button.getAttribute('data-query') || '';
          input.focus();
          input.dispatchEvent(new Event('input', { bubbles: true }));
        });
      } else if (action === 'select') {
        const slug = button.getAttribute('data-slug');
        button.addEventListener('click', () => {
          let first = null;
          each(doc.querySelectorAll('[role="tab"][data-slug]'), (tab) => {
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
    const notes = doc.querySelectorAll('.annotation');
    if (!notes.length) return;
    const set = (note, open) => {
      note.classList.toggle('open', open);
      const trigger = note.querySelector('.annotation-trigger');
      if (trigger) trigger.setAttribute('aria-expanded', open ? 'true' : 'false');
    };
    each(notes, (note) => {
      const trigger = note.querySelector('.annotation-trigger');
      if (!trigger) return;
      trigger.setAttribute('aria-expanded', 'false');
      trigger.setAttribute('aria-controls', trigger.getAttribute('aria-describedby') || '');
      trigger.addEventListener('click', () => {
        note.classList.remove('dismissed');
        set(note, !note.classList.contains('open'));
      });
      note.addEventListener('mouseleave', () => {
        note.classList.remove('dismissed');
      });
      note.addEventListener('focusout', () => {
        note.classList.remove('dismissed');
      });
    });
    doc.addEventListener('click', (event) => {
      each(doc.querySelectorAll('.annotation.open'), (note) => {
        if (!note.contains(event.target)) set(note, false);
      });
    });
    doc.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      each(notes, (note) => {
        if (note.classList.contains('open') || note.contains(doc.activeElement) || note.matches(':hover')) {
          set(note, false);
          note.classList.add('dismissed');
        }
      });
    });
  }

  /*
   * The page tree. A page of a large space sends a trimmed tree: closed branches without their
   * children (`data-tree-closed` toggles), long lists cut to a window around the current page
   * with "N more pages" entries (`data-tree-more`). The sidebar's `data-tree` names the whole
   * tree: an HTML fragment rendered by this same server for this revision, fetched from the
   * same origin (a URL that never changes meaning, so the browser keeps it). It is fetched
   * when the visitor opens a closed branch or asks for more pages (and warmed as soon as the
   * pointer or the focus enters the sidebar), parsed with DOMParser (an inert document: no
   * script runs, nothing loads), and put in place of the page's tree with the same branches
   * open, the current page marked and the clicked entry where it was on screen. Parsing HTML
   * is safe here only because it is our own server's markup for the page's own site, like the
   * page itself; data from elsewhere (search results) is never parsed as HTML.
   */
  function rowLink(row) {
    return row ? row.querySelector(':scope > a') : null;
  }

  function setBranch(button, open) {
    const children = doc.getElementById(button.getAttribute('aria-controls'));
    button.setAttribute('aria-expanded', open ? 'true' : 'false');
    if (children) children.hidden = !open;
  }

  function initTree() {
    const sidebar = doc.getElementById('Sidebar');
    const source = sidebar?.getAttribute('data-tree');
    let whole = null;

    function load() {
      if (!whole) {
        whole = fetch(source, { credentials: 'same-origin', headers: { Accept: 'text/html' } })
          .then((response) => {
            if (!response.ok) throw new Error('navigation not available');
            return response.text();
          })
          .then((text) => {
            const tree = new DOMParser().parseFromString(text, 'text/html').querySelector('body > ul.tree');
            if (!tree) throw new Error('navigation not available');
            return tree;
          });
        whole.catch(() => {
          whole = null;
        });
      }
      return whole;
    }

    /** The whole tree in place of the trimmed one; `href` is the entry the visitor acted on. */
    function swap(fragment, href, openIt) {
      const trimmed = sidebar.querySelector('ul.tree');
      if (!trimmed?.parentNode) return;
      const byHref = (tree) => {
        const out = {};
        each(tree.querySelectorAll('.tree-row > a[href]'), (link) => {
          const key = link.getAttribute('href');
          if (!out[key]) out[key] = link;
        });
        return out;
      };
      const old = byHref(trimmed);
      // A "more" entry links to the first page it stands for: found by the same href.
      const before = old[href];
      const top = before ? before.getBoundingClientRect().top : 0;
      const hadFocus = !!before && before.parentNode.contains(doc.activeElement);
      const current = trimmed.querySelector('.tree-row > a[aria-current="page"]');
      const open = [];
      each(trimmed.querySelectorAll('.tree-toggle[aria-expanded="true"]'), (button) => {
        const link = rowLink(button.parentNode);
        if (link) open.push(link.getAttribute('href'));
      });
      if (openIt) open.push(href);

      const tree = doc.importNode(fragment, true);
      tree.setAttribute('data-whole', '');
      // In the document first: a toggle finds its list by id.
      trimmed.parentNode.replaceChild(tree, trimmed);
      const links = byHref(tree);
      const openRow = (link) => {
        const button = link?.parentNode.querySelector('.tree-toggle');
        if (button) setBranch(button, true);
      };
      if (current) {
        const link = links[current.getAttribute('href')];
        if (link) {
          link.setAttribute('aria-current', 'page');
          openRow(link);
          for (
            let list = link.closest('.tree-children');
            list;
            list = list.parentNode.closest('.tree-children')
          ) {
            const row = list.previousElementSibling;
            const button = row?.querySelector('.tree-toggle');
            if (button) setBranch(button, true);
          }
        }
      }
      for (const key of open) openRow(links[key]);
      bind(tree);

      // The entry the visitor acted on stays where it was on screen.
      const after = links[href];
      if (!after || !before) return;
      const shift = after.getBoundingClientRect().top - top;
      // The sidebar scrolls on its own beside the page (and as the drawer); else the page does.
      if (sidebar.scrollHeight > sidebar.clientHeight) sidebar.scrollTop += shift;
      else if (shift) window.scrollBy(0, shift);
      if (hadFocus) {
        const button = openIt && after.parentNode.querySelector('.tree-toggle');
        (button || after).focus({ preventScroll: true });
      }
    }

    /** Lists what the trimmed tree left out; follows `href` when the whole tree is not to be had. */
    function expand(href, openIt) {
      load().then(
        (fragment) => {
          // A second click while the tree was on its way: it is in place already.
          const tree = sidebar.querySelector('ul.tree');
          if (!tree || tree.hasAttribute('data-whole')) {
            const button =
              openIt && tree?.querySelector(`.tree-row > a[href="${CSS.escape(href)}"] ~ .tree-toggle`);
            if (button) setBranch(button, true);
            return;
          }
          swap(fragment, href, openIt);
        },
        () => {
          window.location.href = href;
        },
      );
    }

    /** A toggle for each branch sent closed (the page holds one, as a template). */
    function addToggles(tree) {
      const template = doc.getElementById('TreeToggle');
      if (!template?.content) return;
      each(tree.querySelectorAll('li[data-tree-closed]'), (item) => {
        const row = item.querySelector(':scope > .tree-row');
        const link = rowLink(row);
        if (!link || row.querySelector('.tree-toggle')) return;
        const button = template.content.firstElementChild.cloneNode(true);
        button.setAttribute('aria-label', `${link.textContent}: show or hide pages`);
        row.appendChild(button);
      });
    }

    function bind(tree) {
      addToggles(tree);
      each(tree.querySelectorAll('.tree-toggle'), (button) => {
        button.hidden = false;
        button.addEventListener('click', () => {
          if (!button.hasAttribute('data-tree-closed')) {
            setBranch(button, button.getAttribute('aria-expanded') !== 'true');
            return;
          }
          const link = rowLink(button.parentNode);
          if (!link) return;
          if (!source) {
            window.location.href = link.href;
            return;
          }
          button.setAttribute('aria-busy', 'true');
          expand(link.getAttribute('href'), true);
        });
      });
      each(tree.querySelectorAll('[data-tree-more]'), (link) => {
        link.addEventListener('click', (event) => {
          if (!source || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          expand(link.getAttribute('href'), false);
        });
      });
    }

    if (sidebar) bind(sidebar);
    if (sidebar && source) {
      const warm = () => {
        load().catch(() => {
          /* opening a branch follows its link instead */
        });
      };
      sidebar.addEventListener('pointerenter', warm, { once: true });
      sidebar.addEventListener('focusin', warm, { once: true });
    }
  }

  function initMenu() {
    const button = doc.querySelector('.menu-toggle');
    const sidebar = doc.getElementById('Sidebar');
    if (!button || !sidebar) return;
    const set = (open) => {
      root.classList.toggle('sidebar-open', open);
      button.setAttribute('aria-expanded', open ? 'true' : 'false');
      if (open) {
        const first =
          sidebar.querySelector('.tree [aria-current="page"]') ||
          sidebar.querySelector('[data-close-sidebar]');
        if (first) first.focus();
      }
    };
    button.addEventListener('click', () => {
      set(!root.classList.contains('sidebar-open'));
    });
    each(doc.querySelectorAll('[data-close-sidebar]'), (el) => {
      el.addEventListener('click', () => {
        set(false);
        button.focus();
      });
    });
    doc.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && root.classList.contains('sidebar-open')) {
        set(false);
        button.focus();
      }
    });
  }

  function initDropdowns() {
    doc.addEventListener('click', (event) => {
      each(doc.querySelectorAll('details.dropdown[open]'), (details) => {
        if (!details.contains(event.target)) details.open = false;
      });
    });
    doc.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return;
      each(doc.querySelectorAll('details.dropdown[open]'), (details) => {
        details.open = false;
        const summary = details.querySelector('summary');
        if (summary && details.contains(doc.activeElement)) summary.focus();
      });
    });
  }

  function initToc() {
    const links = doc.querySelectorAll('.toc a[href^="#"]');
    if (!links.length || !window.IntersectionObserver) return;
    const headings = [];
    const linkOf = {};
    each(links, (link) => {
      const id = decodeURIComponent(link.getAttribute('href').slice(1));
      const heading = doc.getElementById(id);
      if (heading) {
        headings.push(heading);
        linkOf[id] = link;
      }
    });
    const visible = {};
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) visible[entry.target.id] = entry.isIntersecting;
        const first = headings.find((heading) => visible[heading.id]);
        if (!first) return;
        each(links, (link) => {
          link.removeAttribute('aria-current');
        });
        linkOf[first.id].setAttribute('aria-current', 'location');
      },
      { rootMargin: '-72px 0px -55% 0px' },
    );
    for (const heading of headings) observer.observe(heading);
  }

  /** Opens the expandables and selects the tabs that hide the element the URL points at. */
  function revealTarget() {
    const id = decodeURIComponent(window.location.hash.slice(1));
    const target = id && doc.getElementById(id);
    if (!target) return;
    let revealed = false;
    for (let node = target.parentElement; node; node = node.parentElement) {
      if (node.tagName === 'DETAILS' && !node.open) {
        node.open = true;
        revealed = true;
      }
      if (node.getAttribute('role') === 'tabpanel' && node.hidden) {
        const tab = doc.getElementById(node.getAttribute('aria-labelledby'));
        if (tab) {
          tab.click();
          revealed = true;
        }
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
