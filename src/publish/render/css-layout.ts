/**
 * CSS of the site chrome: base, header, section tabs, sidebar tree, table of contents,
 * search, footer, responsive layout. Content blocks are in `css-content.ts`.
 */

export const BASE_CSS = `
:root {
  --font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace;
  --radius: 10px;
  --radius-sm: 6px;
  --radius-pill: 10px;
  --header-h: 60px;
  --max: 1440px;
}
.has-sections { --header-h: 106px; }
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
@media (prefers-reduced-motion: no-preference) { html { scroll-behavior: smooth; } }
body {
  margin: 0;
  background: var(--bg);
  color: var(--fg);
  font-family: var(--font);
  font-size: 16px;
  line-height: 1.65;
  text-rendering: optimizeLegibility;
  -webkit-font-smoothing: antialiased;
}
a { color: var(--link); }
img { max-width: 100%; height: auto; }
button { font: inherit; color: inherit; }
[hidden] { display: none !important; }
:focus-visible { outline: 2px solid var(--primary); outline-offset: 2px; border-radius: 2px; }
::selection { background: color-mix(in srgb, var(--primary) 25%, transparent); }
.icon { flex: none; vertical-align: middle; }
.visually-hidden {
  position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
.skip-link {
  position: absolute; left: 12px; top: -100px; z-index: 100;
  padding: 10px 16px; border-radius: var(--radius-sm);
  background: var(--bg); color: var(--fg); box-shadow: var(--shadow); font-weight: 600;
}
.skip-link:focus { top: 12px; }

/* announcement */
.announcement {
  --accent: var(--info);
  background: color-mix(in srgb, var(--accent) 14%, var(--bg));
  border-bottom: 1px solid color-mix(in srgb, var(--accent) 30%, var(--bg));
  color: var(--fg); font-size: .9rem; text-align: center; padding: 8px 24px;
}
.announcement-success { --accent: var(--success); }
.announcement-warning { --accent: var(--warning); }
.announcement-danger { --accent: var(--danger); }
.announcement a { color: inherit; font-weight: 600; margin-left: .5em; }

/* header */
.site-header {
  position: sticky; top: 0; z-index: 30;
  background: color-mix(in srgb, var(--bg) 88%, transparent);
  -webkit-backdrop-filter: saturate(1.6) blur(10px); backdrop-filter: saturate(1.6) blur(10px);
  border-bottom: 1px solid var(--border);
}
.header-bar {
  max-width: var(--max); margin: 0 auto; height: 60px; padding: 0 24px;
  display: flex; align-items: center; gap: 12px;
}
.brand {
  display: inline-flex; align-items: center; gap: 10px; min-width: 0;
  color: var(--fg); text-decoration: none; font-weight: 650; font-size: 1.05rem; letter-spacing: -.01em;
}
.brand span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.brand img { height: 28px; width: auto; max-width: 180px; }
.logo-dark { display: none; }
.header-links { display: flex; align-items: center; gap: 2px; margin-left: auto; }
.header-links > a, .dropdown > summary {
  display: inline-flex; align-items: center; gap: 4px; padding: 6px 10px; border-radius: var(--radius-sm);
  color: var(--fg-soft); text-decoration: none; font-size: .9rem; font-weight: 500; cursor: pointer;
}
.header-links > a:hover, .dropdown > summary:hover { background: var(--surface-2); color: var(--fg); }
.header-tools { display: flex; align-items: center; gap: 8px; margin-left: auto; }
.header-links + .header-tools { margin-left: 8px; }
.icon-button {
  display: inline-flex; align-items: center; justify-content: center; flex: none;
  width: 36px; height: 36px; padding: 0; border: 1px solid transparent; border-radius: var(--radius-sm);
  background: none; color: var(--fg-soft); cursor: pointer;
}
.icon-button:hover { background: var(--surface-2); color: var(--fg); }
.icon-button .icon { width: 18px; height: 18px; }
.menu-toggle { display: none; margin-left: -8px; }
.theme-toggle .icon-sun { display: none; }

/* dropdowns: <details>, so they open without script */
.dropdown { position: relative; }
.dropdown > summary { list-style: none; }
.dropdown > summary::-webkit-details-marker { display: none; }
.dropdown > summary .icon { width: 14px; height: 14px; transition: transform .15s; }
.dropdown[open] > summary .icon { transform: rotate(180deg); }
.dropdown-menu {
  position: absolute; top: calc(100% + 6px); left: 0; z-index: 40; min-width: 220px;
  margin: 0; padding: 6px; list-style: none;
  background: var(--bg); border: 1px solid var(--border); border-radius: var(--radius); box-shadow: var(--shadow);
}
.dropdown-menu a {
  display: block; padding: 7px 10px; border-radius: var(--radius-sm);
  color: var(--fg-soft); text-decoration: none; font-size: .9rem;
}
.dropdown-menu a:hover { background: var(--surface-2); color: var(--fg); }
.dropdown-group ul { margin: 0; padding: 0; list-style: none; }
.dropdown-heading { display: block; padding: 8px 10px 4px; font-size: .72rem; font-weight: 700; letter-spacing: .05em; text-transform: uppercase; color: var(--fg-muted); }
.dropdown-menu a[aria-current] { color: var(--primary-strong); font-weight: 600; background: var(--primary-soft); }

/* section tabs */
.section-tabs { max-width: var(--max); margin: 0 auto; padding: 0 24px; }
.section-tabs > ul {
  /* Wraps rather than scrolls: a scrolling list would clip the group dropdowns. */
  display: flex; flex-wrap: wrap; align-items: center; column-gap: 4px; margin: 0; padding: 0; list-style: none;
}
.section-tabs > ul > li > a, .section-tabs .dropdown > summary {
  display: inline-flex; align-items: center; gap: 6px; height: 45px; padding: 0 10px;
  border-radius: 0; border-bottom: 2px solid transparent; white-space: nowrap;
  color: var(--fg-muted); text-decoration: none; font-size: .9rem; font-weight: 500;
}
.section-tabs .dropdown > summary:hover { background: none; }
.section-tabs > ul > li > a:hover, .section-tabs .dropdown > summary:hover { color: var(--fg); }
.section-tabs a[aria-current], .section-tabs .dropdown.active > summary {
  color: var(--primary-strong); border-bottom-color: var(--primary);
}
.section-tabs .dropdown-menu { top: 100%; }

/* search */
.search { position: relative; width: clamp(160px, 24vw, 300px); }
html:not(.js) .search { display: none; }
.search .icon { position: absolute; left: 11px; top: 50%; translate: 0 -50%; color: var(--fg-muted); pointer-events: none; }
.search-input {
  width: 100%; height: 36px; padding: 0 12px 0 34px; font: inherit; font-size: .9rem; color: var(--fg);
  background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius-pill);
}
.search-input::placeholder { color: var(--fg-muted); }
.search-input:hover { border-color: var(--border-strong); }
.search-input:focus-visible { outline-offset: 0; border-color: var(--primary); }
.search-panel {
  position: absolute; top: calc(100% + 8px); right: 0; z-index: 40; width: min(440px, 92vw);
  max-height: min(70vh, 520px); overflow-y: auto; padding: 6px;
  background: var(--bg); border: 1px solid var(--border); border-radius: var(--radius); box-shadow: var(--shadow);
}
.search-results { margin: 0; padding: 0; list-style: none; }
.search-results a {
  display: block; padding: 8px 10px; border-radius: var(--radius-sm); color: var(--fg); text-decoration: none;
}
.search-results [aria-selected="true"] a, .search-results a:hover { background: var(--primary-soft); }
.search-result-title { display: block; font-weight: 600; font-size: .92rem; }
.search-result-snippet {
  display: block; font-size: .84rem; color: var(--fg-muted); line-height: 1.5;
  overflow: hidden; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical;
}
.search-status { margin: 0; padding: 8px 10px; color: var(--fg-muted); font-size: .88rem; }

/* layout */
.layout {
  max-width: var(--max); margin: 0 auto; padding: 0 24px;
  display: grid; grid-template-columns: 272px minmax(0, 1fr) 232px; grid-template-areas: "sidebar main toc";
  column-gap: 48px;
}
.layout-bare { grid-template-columns: minmax(0, 1fr); grid-template-areas: "main"; min-height: 80vh; align-content: center; }
.sidebar {
  grid-area: sidebar; position: sticky; top: var(--header-h); align-self: start;
  max-height: calc(100vh - var(--header-h)); overflow-y: auto; overscroll-behavior: contain;
  padding: 24px 8px 48px 0; scrollbar-width: thin;
}
.sidebar-header { display: none; }
.backdrop { display: none; }
main { grid-area: main; min-width: 0; padding: 36px 0 72px; }
.toc {
  grid-area: toc; position: sticky; top: var(--header-h); align-self: start;
  max-height: calc(100vh - var(--header-h)); overflow-y: auto; padding: 36px 0 48px; font-size: .86rem;
}
.content { max-width: 760px; margin: 0 auto; }

/* variants */
.variants { margin: 0 0 16px; }
.variants > summary {
  justify-content: space-between; width: 100%; padding: 8px 12px;
  border: 1px solid var(--border); background: var(--surface); color: var(--fg);
}
.variants .dropdown-menu { width: 100%; min-width: 0; }

/* page tree */
.tree, .tree ul { list-style: none; margin: 0; padding: 0; }
.tree-children { margin: 2px 0 4px 14px !important; padding-left: 8px !important; border-left: 1px solid var(--border); }
.tree-group + .tree-group, .tree-item + .tree-group { margin-top: 18px; }
.tree-heading {
  margin: 0 0 6px; padding: 0 10px; font-size: .75rem; font-weight: 700; letter-spacing: .05em;
  text-transform: uppercase; color: var(--fg-muted);
}
.tree-row { display: flex; align-items: center; gap: 2px; margin: 1px 0; }
.tree-row > a {
  flex: 1; min-width: 0; display: flex; align-items: baseline; gap: 8px; padding: 6px 10px;
  border-radius: var(--radius-sm); color: var(--fg-soft); text-decoration: none; font-size: .92rem; line-height: 1.4;
}
.tree-row > a:hover { background: var(--surface-2); color: var(--fg); }
.tree-row > .tree-text { flex: 1; display: flex; gap: 8px; padding: 6px 10px; color: var(--fg-muted); font-size: .92rem; line-height: 1.4; }
.tree-row > a[aria-current="page"] { background: var(--primary-soft); color: var(--primary-strong); font-weight: 600; }
.tree-row > a .icon { width: 13px; height: 13px; color: var(--fg-muted); align-self: center; }
.tree-emoji { flex: none; }
.tree-toggle { width: 28px; height: 28px; }
.tree-toggle .icon { width: 14px; height: 14px; transition: transform .15s; }
.tree-toggle[aria-expanded="true"] .icon { transform: rotate(90deg); }
.sidebar-links { display: none; }

/* table of contents */
.toc-title {
  margin: 0 0 10px; font-size: .75rem; font-weight: 700; letter-spacing: .05em; text-transform: uppercase;
  color: var(--fg-muted);
}
.toc ul { list-style: none; margin: 0; padding: 0; border-left: 1px solid var(--border); }
.toc a {
  display: block; margin-left: -1px; padding: 4px 12px; border-left: 2px solid transparent;
  color: var(--fg-muted); text-decoration: none; line-height: 1.45;
}
.toc .toc-level-2 a { padding-left: 24px; }
.toc .toc-level-3 a { padding-left: 36px; }
.toc a:hover { color: var(--fg); }
.toc a[aria-current="location"] { color: var(--primary-strong); border-left-color: var(--primary); }
.toc-extra { margin-top: 20px; padding-top: 16px; border-top: 1px solid var(--border); }
.toc-extra a { display: inline-flex; align-items: center; gap: 6px; color: var(--fg-muted); text-decoration: none; }
.toc-extra a:hover { color: var(--fg); }

/* footer */
.site-footer { border-top: 1px solid var(--border); background: var(--surface); color: var(--fg-muted); font-size: .9rem; }
.footer-inner { max-width: var(--max); margin: 0 auto; padding: 40px 24px; }
.footer-groups { display: grid; grid-template-columns: repeat(auto-fill, minmax(160px, 220px)); gap: 24px 40px; margin-bottom: 28px; }
.footer-group h2 { margin: 0 0 10px; font-size: .8rem; font-weight: 700; letter-spacing: .04em; text-transform: uppercase; color: var(--fg); }
.footer-group ul { list-style: none; margin: 0; padding: 0; }
.footer-group li + li { margin-top: 6px; }
.footer-group a { color: var(--fg-muted); text-decoration: none; }
.footer-group a:hover { color: var(--fg); text-decoration: underline; }
.copyright { margin: 0; }

/* responsive */
@media (max-width: 1200px) {
  .layout { grid-template-columns: 256px minmax(0, 1fr); grid-template-areas: "sidebar main"; column-gap: 40px; }
  .toc { display: none; }
}
@media (max-width: 900px) {
  .has-sections { --header-h: 106px; }
  .header-bar { padding: 0 16px; }
  .layout { grid-template-columns: minmax(0, 1fr); grid-template-areas: "main" "sidebar"; padding: 0 20px; }
  .header-links { display: none; }
  .section-tabs { padding: 0 12px; }
  .js .menu-toggle { display: inline-flex; }
  .sidebar-links { display: block; margin-top: 24px; padding-top: 16px; border-top: 1px solid var(--border); }
  .sidebar-links ul { list-style: none; margin: 0; padding: 0; }
  .sidebar-links a { display: block; padding: 6px 10px; color: var(--fg-soft); text-decoration: none; }
  html:not(.js) .sidebar { position: static; max-height: none; border-top: 1px solid var(--border); padding: 24px 0 40px; }
  .js .sidebar {
    position: fixed; z-index: 50; inset: 0 auto 0 0; top: 0; width: min(320px, 86vw); max-height: none; height: 100%;
    padding: 12px 16px 40px; background: var(--bg); border-right: 1px solid var(--border); box-shadow: var(--shadow);
    transform: translateX(-105%); visibility: hidden; transition: transform .2s ease, visibility 0s linear .2s;
  }
  .js.sidebar-open .sidebar { transform: none; visibility: visible; transition: transform .2s ease; }
  .js .sidebar-header { display: flex; align-items: center; justify-content: space-between; margin-bottom: 12px; font-weight: 650; }
  .js.sidebar-open .backdrop { display: block; position: fixed; inset: 0; z-index: 45; background: rgb(0 0 0 / 40%); }
  .js.sidebar-open body { overflow: hidden; }
  main { padding-top: 24px; }
}
@media (max-width: 560px) {
  .search { width: auto; flex: 1; min-width: 0; }
  .header-tools { flex: 1; justify-content: flex-end; }
  .brand img { max-width: 120px; }
}
@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after { transition: none !important; animation: none !important; }
}
@media print {
  .site-header, .sidebar, .toc, .pagination, .page-actions, .announcement, .site-footer, .skip-link, .copy-button { display: none !important; }
  .layout { display: block; }
  .tab-list { display: none !important; }
  .tab-panel[hidden] { display: block !important; }
  .tab-panel-title { display: block !important; }
}
`;
