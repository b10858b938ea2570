/**
 * CSS of the richer document blocks and inlines: steppers, updates, columns, prompts, API
 * placeholders, card tables and typed cells, image layouts, collapsible code, Font Awesome
 * icons, buttons, mentions and annotations. Colours come from the theme variables only, so
 * both themes and a site's own colours apply. The page has no style attributes: sizes the
 * document chooses (column and image widths, collapsed line counts) are classes from here.
 */

const PALETTE = ['green', 'blue', 'red', 'orange', 'yellow', 'purple', 'pink', 'violet', 'cyan'];

/** `.w-0`…`.w-100`: a width in percent, as the `--w` variable columns and images read. */
const WIDTHS = Array.from({ length: 101 }, (_, i) => `.w-${i} { --w: ${i}%; }`).join('\n');

/** `.collapse-3`…`.collapse-30`: how many lines a collapsed code block or prompt shows. */
const COLLAPSE = Array.from({ length: 28 }, (_, i) => `.collapse-${i + 3} { --collapsed: ${i + 3}; }`).join(
  '\n',
);

const BADGES = [
  ...PALETTE.map((c) => `.badge-${c} { --badge: var(--c-${c}); }`),
  ...['info', 'success', 'warning', 'danger'].map((c) => `.badge-${c} { --badge: var(--${c}); }`),
  '.badge-primary { --badge: var(--primary); }',
].join('\n');

export const BLOCKS_CSS = `
/* spacing of the blocks below */
.page-body .stepper, .page-body .updates, .page-body .columns, .page-body .prompt, .page-body .api-placeholder,
.page-body .table-cards, .page-body .captioned { margin: 0 0 1.1em; }
${WIDTHS}
${COLLAPSE}

/* Font Awesome icons: as tall as the text around them */
.fa-icon { display: inline-block; flex: none; overflow: visible; vertical-align: -0.125em; }
.fa-missing { opacity: .55; }
.inline-icon { display: inline-flex; vertical-align: -0.1em; }
.hint-icon .fa-icon { font-size: 17px; }
.tab-icon { margin-right: .45em; color: var(--fg-muted); }
[aria-selected="true"] > .tab-icon { color: inherit; }

/* stepper */
.page-body .stepper { list-style: none; padding-left: 0; }
.page-body .stepper-step { position: relative; display: flex; gap: 16px; margin: 0; }
.stepper-badge {
  position: relative; z-index: 1; flex: none; display: flex; align-items: center; justify-content: center;
  width: 28px; height: 28px; border-radius: 50%; font-size: .85rem; font-weight: 700; line-height: 1;
  background: var(--primary-soft); color: var(--primary-strong);
  border: 1px solid color-mix(in srgb, var(--primary) 35%, var(--bg));
}
.stepper-step:not(:last-child)::before {
  content: ""; position: absolute; left: 13.5px; top: 34px; bottom: 6px; width: 1px; background: var(--border-strong);
}
.stepper-body { flex: 1; min-width: 0; padding: 2px 0 8px; }
.stepper-body > :first-child { margin-top: 0; }
.stepper-body > .heading:first-child { font-size: 1.15rem; line-height: 1.45; }
.stepper-step:last-child .stepper-body > :last-child { margin-bottom: 0; }

/* updates: a changelog timeline */
.update { display: grid; grid-template-columns: 150px minmax(0, 1fr); gap: 0 28px; }
.update-meta {
  position: sticky; top: calc(var(--header-h) + 16px); align-self: start;
  display: flex; flex-direction: column; align-items: flex-start; gap: 8px; padding-top: 2px;
}
.update-date { font-size: .88rem; font-weight: 650; color: var(--fg-soft); font-variant-numeric: tabular-nums; }
.page-body .update-tags { display: flex; flex-wrap: wrap; gap: 4px; margin: 0; padding: 0; list-style: none; }
.page-body .update-tags .tag {
  margin: 0; padding: 1px 8px; border-radius: var(--radius-pill); font-size: .74rem; font-weight: 650;
  background: var(--primary-soft); color: var(--primary-strong);
}
.update-body { position: relative; min-width: 0; padding: 0 0 32px 28px; border-left: 1px solid var(--border); }
.update-body::before {
  content: ""; position: absolute; left: -5px; top: .45em; width: 9px; height: 9px; border-radius: 50%;
  background: var(--primary); box-shadow: 0 0 0 3px var(--bg);
}
.update-body > :first-child { margin-top: 0; }
.update:last-child .update-body { padding-bottom: 4px; }
.update:last-child .update-body > :last-child { margin-bottom: 0; }

/* columns */
.columns { display: flex; gap: 24px; }
.column { flex: 1 1 0; min-width: 0; }
.column.sized { flex: 0 1 var(--w); }
.column.valign-middle { align-self: center; }
.column.valign-bottom { align-self: flex-end; }
.column > :first-child { margin-top: 0; }
.column > :last-child { margin-bottom: 0; }

/* prompts */
.prompt { position: relative; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); }
.prompt-header {
  display: flex; align-items: center; gap: 10px; min-height: 46px; padding: 10px 104px 10px 16px;
  border-radius: var(--radius); cursor: pointer; list-style: none; font-weight: 600;
}
.prompt-header::-webkit-details-marker { display: none; }
.prompt-header:hover { background: var(--surface-2); }
.prompt-icon { display: flex; color: var(--primary-strong); }
.prompt-title { min-width: 0; overflow-wrap: anywhere; }
.prompt-chevron { flex: none; color: var(--fg-muted); transition: transform .15s; }
.prompt-details[open] .prompt-chevron { transform: rotate(180deg); }
.prompt-details[open] > .prompt-header { border-radius: var(--radius) var(--radius) 0 0; }
.prompt-text {
  margin: 0; padding: 14px 16px; border-top: 1px solid var(--border); background: var(--bg);
  font-size: .86rem; line-height: 1.65; white-space: pre-wrap; overflow-wrap: anywhere; color: var(--fg);
  border-radius: 0 0 var(--radius) var(--radius);
}
.prompt-text:focus-visible { outline-offset: -2px; }
.prompt-copy { position: absolute; top: 8px; right: 8px; }

/* collapsed code blocks and partial prompts: a "show more" toggle, no script needed */
.expandable-code pre.code, .prompt-partial .prompt-text {
  max-height: calc(var(--collapsed, 10) * 1.65em + 28px); overflow: auto;
  -webkit-mask-image: linear-gradient(#000 60%, transparent); mask-image: linear-gradient(#000 60%, transparent);
}
.expandable-code:has(> .code-more[open]) pre.code, .prompt-partial:has(.code-more[open]) .prompt-text {
  max-height: none; -webkit-mask-image: none; mask-image: none;
}
.code-more { border-top: 1px solid var(--border); }
.code-more > summary {
  display: block; padding: 7px 14px; list-style: none; cursor: pointer; text-align: center;
  font-size: .82rem; font-weight: 600; color: var(--primary-strong); background: var(--surface);
}
.code-more > summary::-webkit-details-marker { display: none; }
.code-more > summary:hover { background: var(--surface-2); }
.code-more > summary:focus-visible { outline-offset: -2px; }
.code-more:not([open]) .code-more-hide, .code-more[open] .code-more-show { display: none; }
.prompt .code-more > summary { border-radius: 0 0 var(--radius) var(--radius); }

/* OpenAPI and integration placeholders */
.api-placeholder { padding: 14px 16px; border: 1px dashed var(--border-strong); border-radius: var(--radius); background: var(--surface); }
.api-title { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; font-weight: 600; }
.api-icon { color: var(--fg-muted); }
.api-kind { font-weight: 650; }
.page-body .api-note { margin: 6px 0 0; font-size: .88rem; color: var(--fg-muted); }
.method-badge {
  --method: var(--fg-muted);
  display: inline-block; padding: 3px 7px; border-radius: 5px; font: 700 .72rem/1.3 var(--mono); letter-spacing: .03em;
  color: var(--method); background: color-mix(in srgb, var(--method) 13%, var(--bg));
  border: 1px solid color-mix(in srgb, var(--method) 35%, var(--bg));
}
.method-get { --method: var(--c-green); }
.method-post { --method: var(--c-blue); }
.method-put { --method: var(--c-orange); }
.method-patch { --method: var(--c-purple); }
.method-delete { --method: var(--c-red); }

/* images: alignment, frames, widths, captions under cards */
.images-left .image { text-align: left; }
.images-left .image img { margin: 0; }
.images-right .image { text-align: right; }
.images-right .image img { margin: 0 0 0 auto; }
.images.framed { padding: 16px; border: 1px solid var(--border); border-radius: var(--radius); background: var(--surface); }
.image.sized img { width: var(--w); }
.inline-image-original { height: auto; max-height: none; vertical-align: middle; }
.captioned > .card { margin: 0; }
.captioned figcaption { margin-top: 8px; font-size: .88rem; color: var(--fg-muted); }
.raw-text { white-space: pre-line; }

/* tables: cell types */
td.valign-middle { vertical-align: middle; }
td.valign-bottom { vertical-align: bottom; }
.checkbox-value { font-size: 1.1em; line-height: 1; color: var(--fg-muted); }
.checkbox-value.checked { color: var(--success); }
.rating { white-space: nowrap; letter-spacing: .08em; }
.rating-on { color: var(--c-yellow); }
.rating-off { color: var(--border-strong); }
.cell-image { max-height: 96px; width: auto; border-radius: var(--radius-sm); }
.badge {
  --badge: var(--tint);
  display: inline-block; padding: 1px 8px; border-radius: var(--radius-pill); font-size: .78rem; font-weight: 600; line-height: 1.55;
  color: color-mix(in srgb, var(--badge) 80%, var(--fg)); background: color-mix(in srgb, var(--badge) 14%, var(--bg));
  border: 1px solid color-mix(in srgb, var(--badge) 30%, var(--bg));
}
${BADGES}

/* tables: cards view */
.page-body .table-cards {
  display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 16px; padding: 0; list-style: none;
}
.page-body .table-cards.cards-large { grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); }
.page-body .table-card {
  position: relative; display: flex; flex-direction: column; margin: 0; overflow: hidden;
  border: 1px solid var(--border); border-radius: var(--radius); background: var(--bg);
  transition: border-color .15s, box-shadow .15s;
}
.table-card.linked:hover { border-color: color-mix(in srgb, var(--primary) 50%, var(--border)); box-shadow: 0 2px 10px rgb(0 0 0 / 6%); }
.page-body a.table-card-link { display: flex; flex-direction: column; flex: 1; color: inherit; text-decoration: none; }
.table-card-media { aspect-ratio: 16 / 9; background: var(--surface-2); border-bottom: 1px solid var(--border); }
.table-card-cover { display: block; width: 100%; height: 100%; object-fit: cover; }
.table-card-cover.fit-contain { object-fit: contain; }
.table-card-cover.fit-fill { object-fit: fill; }
.table-card-body { display: flex; flex-direction: column; gap: 6px; padding: 12px 14px; min-width: 0; }
.table-card-label { display: block; font-size: .72rem; font-weight: 700; letter-spacing: .04em; text-transform: uppercase; color: var(--fg-muted); }
.table-card-value > :first-child { margin-top: 0; }
.table-card-value > :last-child { margin-bottom: 0; }
.table-card-cover-link { position: absolute; inset: 0; z-index: 1; border-radius: inherit; }
.table-card-cover-link:focus-visible { outline-offset: -2px; }
.stretched .table-card-body :is(a, button, summary, details) { position: relative; z-index: 2; }

/* inline: expressions, mentions, buttons */
.page-body .mention {
  padding: 0 .35em; border-radius: var(--radius-sm); background: var(--surface-2); font-weight: 550;
  text-decoration: none; white-space: normal;
}
.page-body a.mention:hover { background: var(--primary-soft); }
.mention-emoji { margin-right: .25em; }
.page-body .button { margin: .15em 0; vertical-align: middle; text-decoration: none; line-height: 1.4; }
button.button { border: 0; cursor: pointer; }
.button-secondary { background: var(--surface-2); color: var(--fg); box-shadow: inset 0 0 0 1px var(--border-strong); }
.button-small { padding: 5px 12px; font-size: .85rem; }
.button-large { padding: 12px 24px; font-size: 1.05rem; }
.button.unavailable { opacity: .6; cursor: default; }
.button.unavailable:hover { filter: none; }
html:not(.js) button.button[data-action] { display: none; }

/* annotations: words with a note on hover and focus */
.annotation { position: relative; }
.annotation-trigger {
  padding: 0; border: 0; background: none; font: inherit; color: inherit; cursor: help;
  text-decoration: underline dotted; text-decoration-color: var(--fg-muted); text-underline-offset: 3px;
}
.annotation-body {
  display: none; position: absolute; left: 0; top: calc(100% + 8px); z-index: 20;
  width: max-content; max-width: min(360px, 80vw); padding: 10px 12px;
  border: 1px solid var(--border); border-radius: var(--radius-sm); background: var(--bg); box-shadow: var(--shadow);
  color: var(--fg); font-size: .88rem; font-weight: 400; font-style: normal; line-height: 1.5; text-align: left; white-space: normal;
}
.annotation-body::before { content: ""; position: absolute; left: 0; right: 0; top: -9px; height: 9px; }
.annotation:hover > .annotation-body, .annotation:focus-within > .annotation-body, .annotation.open > .annotation-body { display: block; }
.annotation.dismissed > .annotation-body { display: none; }
.annotation-paragraph { display: block; }
.annotation-paragraph + .annotation-paragraph, .annotation-code { margin-top: .4em; }
.annotation-code { display: block; white-space: pre-wrap; }

@media (max-width: 760px) {
  .columns { flex-direction: column; }
  .column, .column.sized { flex: none; width: 100%; align-self: stretch; }
}
@media (max-width: 640px) {
  .update { grid-template-columns: minmax(0, 1fr); }
  .update-meta { position: static; flex-direction: row; flex-wrap: wrap; align-items: center; margin-bottom: 8px; }
  .update-body { padding-left: 20px; }
}
@media print {
  .annotation-body { display: inline; position: static; box-shadow: none; border: 0; padding: 0 0 0 .3em; }
  .expandable-code pre.code, .prompt-partial .prompt-text { max-height: none; -webkit-mask-image: none; mask-image: none; }
  .code-more, .prompt-copy { display: none; }
}
`;
