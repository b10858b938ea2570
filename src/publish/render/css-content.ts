/** CSS of the page content: title, typography and every document block, code colours. */

export const CONTENT_CSS = `
/* page head */
.breadcrumbs ol { display: flex; flex-wrap: wrap; align-items: center; gap: 4px; margin: 0 0 12px; padding: 0; list-style: none; font-size: .85rem; }
.breadcrumbs li { display: inline-flex; align-items: center; gap: 4px; color: var(--fg-muted); }
.breadcrumbs li + li::before { content: "/"; color: var(--border-strong); margin-right: 2px; }
.breadcrumbs a { color: var(--fg-muted); text-decoration: none; }
.breadcrumbs a:hover { color: var(--fg); text-decoration: underline; }
.page-title { margin: 0; font-size: clamp(1.85rem, 1.4rem + 1.6vw, 2.4rem); line-height: 1.2; font-weight: 750; letter-spacing: -.022em; text-wrap: balance; }
.page-emoji { margin-right: .3em; }
.page-description { margin: 12px 0 0; font-size: 1.13rem; color: var(--fg-muted); line-height: 1.55; text-wrap: pretty; }
.page-head { margin-bottom: 32px; }
.page-cover { margin: 0 0 28px; border-radius: var(--radius, 12px); overflow: hidden; }
.page-cover img { display: block; width: 100%; object-fit: cover; }
.page-cover-full { border-radius: 0; }

/* text */
.page-body { overflow-wrap: break-word; }
.page-body > :first-child { margin-top: 0; }
.page-body p, .page-body ul, .page-body ol, .page-body blockquote, .page-body .hint, .page-body .tabs,
.page-body .code-block, .page-body .images, .page-body .table-wrap, .page-body .card, .page-body .expandable,
.page-body .math-block { margin: 0 0 1.1em; }
.page-body p { text-wrap: pretty; }
.heading { position: relative; scroll-margin-top: calc(var(--header-h) + 20px); font-weight: 680; letter-spacing: -.014em; color: var(--fg); }
h2.heading { margin: 2.1em 0 .6em; font-size: 1.6rem; line-height: 1.3; }
h3.heading { margin: 1.8em 0 .5em; font-size: 1.28rem; line-height: 1.35; }
h4.heading { margin: 1.6em 0 .4em; font-size: 1.08rem; line-height: 1.4; }
.heading .anchor {
  display: inline-flex; vertical-align: middle; margin-left: .35em; padding: 4px; border-radius: var(--radius-sm);
  color: var(--fg-muted); opacity: 0; transition: opacity .15s;
}
.heading:hover .anchor, .heading .anchor:focus-visible { opacity: 1; }
.page-body a { text-decoration-line: underline; text-decoration-thickness: 1px; text-underline-offset: 3px;
  text-decoration-color: color-mix(in srgb, currentColor 40%, transparent); }
.page-body a:hover { text-decoration-color: currentColor; }
.page-body a.card { text-decoration: none; }
.heading .anchor { text-decoration: none; }
strong { font-weight: 650; }
code, kbd, pre { font-family: var(--mono); }
:not(pre) > code {
  padding: .12em .38em; border-radius: 5px; font-size: .86em;
  background: var(--surface-2); border: 1px solid var(--border); overflow-wrap: anywhere;
}
kbd {
  display: inline-block; padding: .05em .45em; font-size: .82em; line-height: 1.4; border-radius: 5px;
  border: 1px solid var(--border-strong); border-bottom-width: 2px; background: var(--surface);
}
.emoji { font-family: "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji", sans-serif; }
.page-body ul, .page-body ol { padding-left: 1.6em; }
.page-body li { margin: .3em 0; }
.page-body li > p, .page-body li > ul, .page-body li > ol { margin: .3em 0; }
.page-body li::marker { color: var(--fg-muted); }
.task-list { list-style: none; padding-left: .2em !important; }
.task { display: flex; align-items: flex-start; gap: .6em; }
.task input { flex: none; width: 1em; height: 1em; margin: .35em 0 0; accent-color: var(--primary); }
.task-body { min-width: 0; flex: 1; }
.task-body > p { margin: 0 !important; }
.task.done .task-body { color: var(--fg-muted); }
blockquote { padding: .1em 0 .1em 1.1em; border-left: 3px solid var(--border-strong); color: var(--fg-soft); }
blockquote > :last-child { margin-bottom: 0; }
hr { height: 1px; margin: 2.2em 0; border: 0; background: var(--border); }
.align-center { text-align: center; }
.align-end, .align-right { text-align: right; }
.unresolved-link { text-decoration: underline dotted; text-underline-offset: 3px; }
.inline-image { display: inline; height: 1.2em; width: auto; vertical-align: -0.2em; }
.tc-green { color: var(--c-green); } .tc-blue { color: var(--c-blue); } .tc-red { color: var(--c-red); }
.tc-orange { color: var(--c-orange); } .tc-yellow { color: var(--c-yellow); } .tc-purple { color: var(--c-purple); }
.tc-primary { color: var(--primary-strong); } .tc-info { color: var(--info); } .tc-success { color: var(--success); }
.tc-warning { color: var(--warning); } .tc-danger { color: var(--danger); }
.tc-pink { color: var(--c-pink); } .tc-violet { color: var(--c-violet); } .tc-cyan { color: var(--c-cyan); }
.tc-tint { color: var(--tint); }
[class*="bg-"] { padding: 0 .15em; border-radius: 3px; }
.bg-green { background: color-mix(in srgb, var(--c-green) 18%, transparent); }
.bg-blue { background: color-mix(in srgb, var(--c-blue) 18%, transparent); }
.bg-red { background: color-mix(in srgb, var(--c-red) 18%, transparent); }
.bg-orange { background: color-mix(in srgb, var(--c-orange) 18%, transparent); }
.bg-yellow { background: color-mix(in srgb, var(--c-yellow) 22%, transparent); }
.bg-purple { background: color-mix(in srgb, var(--c-purple) 18%, transparent); }
.bg-primary { background: var(--primary-soft); }
.bg-info { background: color-mix(in srgb, var(--info) 18%, transparent); }
.bg-success { background: color-mix(in srgb, var(--success) 18%, transparent); }
.bg-warning { background: color-mix(in srgb, var(--warning) 20%, transparent); }
.bg-danger { background: color-mix(in srgb, var(--danger) 18%, transparent); }
.bg-pink { background: color-mix(in srgb, var(--c-pink) 18%, transparent); }
.bg-violet { background: color-mix(in srgb, var(--c-violet) 18%, transparent); }
.bg-cyan { background: color-mix(in srgb, var(--c-cyan) 18%, transparent); }
.bg-tint { background: var(--surface-2); }

/* hints */
.hint {
  --accent: var(--info);
  display: flex; gap: 12px; padding: 14px 16px; border-radius: var(--radius);
  background: color-mix(in srgb, var(--accent) 8%, var(--bg));
  border: 1px solid color-mix(in srgb, var(--accent) 28%, var(--bg));
}
.hint-success { --accent: var(--success); }
.hint-warning { --accent: var(--warning); }
.hint-danger { --accent: var(--danger); }
.hint-icon { flex: none; display: flex; padding-top: .2em; color: var(--accent); }
.hint-icon .icon { width: 18px; height: 18px; }
.hint-body { min-width: 0; flex: 1; }
.hint-body > :last-child { margin-bottom: 0; }
.hint-body > .heading:first-child { margin-top: 0; }

/* tabs */
.tabs { border: 1px solid var(--border); border-radius: var(--radius); overflow: hidden; }
.tab-list { display: flex; gap: 2px; padding: 0 8px; overflow-x: auto; background: var(--surface); border-bottom: 1px solid var(--border); scrollbar-width: thin; }
.tab-list [role="tab"] {
  flex: none; margin-bottom: -1px; padding: 10px 12px; border: 0; border-bottom: 2px solid transparent;
  background: none; color: var(--fg-muted); font-size: .9rem; font-weight: 550; cursor: pointer; white-space: nowrap;
}
.tab-list [role="tab"]:hover { color: var(--fg); }
.tab-list [role="tab"][aria-selected="true"] { color: var(--primary-strong); border-bottom-color: var(--primary); }
.tab-list [role="tab"]:focus-visible { outline-offset: -2px; }
.tab-panel { padding: 16px 18px; }
.tab-panel:focus-visible { outline-offset: -2px; }
.tab-panel + .tab-panel { border-top: 1px solid var(--border); }
.tabs.enhanced .tab-panel + .tab-panel { border-top: 0; }
.tab-panel > :last-child { margin-bottom: 0; }
.tab-panel-title { margin: 0 0 .6em !important; font-weight: 650; color: var(--fg-soft); }
.tabs.enhanced .tab-panel-title { display: none; }

/* code */
.code-block { position: relative; overflow: hidden; border: 1px solid var(--border); border-radius: var(--radius); background: var(--code-bg); }
.code-header {
  display: flex; align-items: center; justify-content: space-between; gap: 8px; min-height: 38px;
  padding: 4px 6px 4px 14px; border-bottom: 1px solid var(--border); background: var(--surface-2);
  font-size: .8rem; color: var(--fg-muted);
}
.code-title { color: var(--fg-soft); font-weight: 600; font-family: var(--mono); font-size: .8rem; }
.code-lang { font-family: var(--mono); text-transform: lowercase; }
.copy-button {
  display: inline-flex; align-items: center; gap: 6px; padding: 4px 8px; border: 1px solid transparent; border-radius: var(--radius-sm);
  background: none; color: var(--fg-muted); font-size: .78rem; cursor: pointer;
}
.copy-button:hover { color: var(--fg); background: var(--surface); border-color: var(--border); }
.copy-button .icon { width: 14px; height: 14px; }
.copy-button .icon-done, .copy-button.copied .icon:not(.icon-done) { display: none; }
.copy-button.copied .icon-done { display: inline; color: var(--success); }
pre.code { margin: 0; padding: 14px 0; overflow: auto; font-size: .86rem; line-height: 1.65; tab-size: 4; }
pre.code:focus-visible { outline-offset: -2px; }
pre.code > code { display: block; min-width: 100%; width: max-content; }
pre.code.wrap > code { width: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
/* One block per line, each holding its own line end (nothing between lines to draw twice). */
.line { display: block; min-height: 1.65em; padding: 0 18px; }
.line.hl { background: color-mix(in srgb, var(--primary) 12%, transparent); box-shadow: inset 3px 0 var(--primary); }
.line-numbers { counter-reset: line; }
.line-numbers .line { position: relative; padding-left: calc(18px + 3.3em); }
.line-numbers .line::before {
  counter-increment: line; content: counter(line);
  position: absolute; left: 10px; width: 2.4em; text-align: right;
  color: var(--fg-muted); opacity: .75; user-select: none; -webkit-user-select: none;
}
.math-block { padding: 12px 16px; overflow: auto; border-radius: var(--radius); background: var(--surface); border: 1px solid var(--border); color: var(--fg); }
code.math { font-size: .9em; color: var(--fg); }

/* expandables */
.expandable { border: 1px solid var(--border); border-radius: var(--radius); }
.expandable > summary {
  display: flex; align-items: center; gap: 10px; padding: 12px 16px; cursor: pointer; list-style: none;
  font-weight: 600; border-radius: var(--radius);
}
.expandable > summary::-webkit-details-marker { display: none; }
.expandable > summary:hover { background: var(--surface); }
.expandable-chevron { color: var(--fg-muted); transition: transform .15s; }
.expandable[open] > summary .expandable-chevron { transform: rotate(90deg); }
.expandable[open] > summary { border-bottom: 1px solid var(--border); border-radius: var(--radius) var(--radius) 0 0; }
.expandable-body { padding: 16px 18px 4px; }
.expandable-body > :last-child { margin-bottom: 12px; }

/* images */
.images { display: grid; gap: 16px; }
.images-2 { grid-template-columns: repeat(2, minmax(0, 1fr)); }
.images-3 { grid-template-columns: repeat(3, minmax(0, 1fr)); }
.images-4 { grid-template-columns: repeat(2, minmax(0, 1fr)); }
.image { margin: 0; text-align: center; }
.image img { display: block; margin: 0 auto; border-radius: var(--radius-sm); }
.image figcaption { margin-top: 8px; font-size: .88rem; color: var(--fg-muted); }
.missing-image { display: inline-flex; align-items: center; gap: 8px; padding: 16px; color: var(--fg-muted); border: 1px dashed var(--border-strong); border-radius: var(--radius-sm); }

/* cards: files, embeds, content references */
.card {
  display: flex; align-items: center; gap: 14px; padding: 14px 16px;
  border: 1px solid var(--border); border-radius: var(--radius); background: var(--bg);
  color: var(--fg); text-decoration: none; transition: border-color .15s, box-shadow .15s;
}
a.card:hover { border-color: color-mix(in srgb, var(--primary) 50%, var(--border)); box-shadow: 0 2px 10px rgb(0 0 0 / 6%); }
.card.unavailable { color: var(--fg-muted); border-style: dashed; }
.card-icon { width: 20px; height: 20px; color: var(--primary-strong); }
.card-emoji { font-size: 1.2rem; line-height: 1; }
.card-text { display: flex; flex-direction: column; min-width: 0; flex: 1; }
.card-title { font-weight: 600; line-height: 1.4; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.card-subtitle { font-size: .85rem; color: var(--fg-muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.card-action { display: flex; color: var(--fg-muted); }

/* tables */
.table-wrap { overflow-x: auto; border: 1px solid var(--border); border-radius: var(--radius); }
.table-wrap:focus-visible { outline-offset: 0; }
table { width: 100%; border-collapse: collapse; font-size: .92rem; }
th, td { padding: 9px 14px; text-align: left; vertical-align: top; border-bottom: 1px solid var(--border); }
th { background: var(--surface); font-weight: 650; color: var(--fg); white-space: nowrap; }
th + th, td + td { border-left: 1px solid var(--border); }
tbody tr:last-child td { border-bottom: 0; }
th.align-center, td.align-center { text-align: center; }
th.align-right, td.align-right { text-align: right; }

/* page end */
.page-actions { display: flex; flex-wrap: wrap; gap: 8px 20px; margin-top: 48px; font-size: .88rem; }
.page-actions a { display: inline-flex; align-items: center; gap: 6px; color: var(--fg-muted); text-decoration: none; }
.page-actions a:hover { color: var(--fg); }
.pagination { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; margin-top: 24px; }
.pagination a {
  display: flex; flex-direction: column; gap: 2px; padding: 14px 18px; border: 1px solid var(--border); border-radius: var(--radius);
  color: var(--fg); text-decoration: none; transition: border-color .15s;
}
.pagination a:hover { border-color: color-mix(in srgb, var(--primary) 50%, var(--border)); }
.pagination .next { grid-column: 2; text-align: right; align-items: flex-end; }
.pagination-label { display: inline-flex; align-items: center; gap: 6px; font-size: .8rem; color: var(--fg-muted); }
.pagination-title { font-weight: 600; color: var(--primary-strong); }
.message-page { padding: 72px 0; text-align: center; }
.status-code { margin: 0 0 8px; font-size: .95rem; font-weight: 700; letter-spacing: .08em; color: var(--primary-strong); font-family: var(--mono); }
.message-page .page-description { margin-bottom: 28px; }
.button {
  display: inline-flex; align-items: center; gap: 8px; padding: 9px 18px; border-radius: var(--radius-pill);
  background: var(--primary); color: var(--on-primary); font-weight: 600; text-decoration: none;
}
.button:hover { filter: brightness(1.08); }
@media (max-width: 640px) {
  .images-2, .images-3, .images-4 { grid-template-columns: minmax(0, 1fr); }
  .pagination { grid-template-columns: minmax(0, 1fr); }
  .pagination .next { grid-column: 1; }
}

/* highlight.js tokens */
.hljs-doctag, .hljs-keyword, .hljs-meta .hljs-keyword, .hljs-template-tag, .hljs-template-variable, .hljs-type, .hljs-variable.language_ { color: var(--hl-keyword); }
.hljs-title, .hljs-title.class_, .hljs-title.class_.inherited__, .hljs-title.function_ { color: var(--hl-title); }
.hljs-attr, .hljs-attribute, .hljs-literal, .hljs-meta, .hljs-number, .hljs-operator, .hljs-variable, .hljs-selector-attr, .hljs-selector-class, .hljs-selector-id { color: var(--hl-attr); }
.hljs-regexp, .hljs-string, .hljs-meta .hljs-string { color: var(--hl-string); }
.hljs-built_in, .hljs-symbol, .hljs-bullet { color: var(--hl-builtin); }
.hljs-comment, .hljs-code, .hljs-formula { color: var(--hl-comment); font-style: italic; }
.hljs-name, .hljs-quote, .hljs-selector-tag, .hljs-selector-pseudo { color: var(--hl-name); }
.hljs-section { color: var(--hl-attr); font-weight: 700; }
.hljs-emphasis { font-style: italic; }
.hljs-strong { font-weight: 700; }
.hljs-addition { color: var(--hl-add-fg); background: var(--hl-add-bg); }
.hljs-deletion { color: var(--hl-del-fg); background: var(--hl-del-bg); }
`;
