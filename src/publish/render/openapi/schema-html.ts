import {
  entries,
  field,
  isObject,
  items,
  type JsonObject,
  LIMITS,
  text,
} from '../../../openapi/read/read.js';
import {
  type Fact,
  hiddenIn,
  type SchemaMode,
  type SchemaPath,
  type SchemaView,
  schemaFacts,
  schemaTypes,
  typeText,
  variantsOf,
  viewSchema,
} from '../../../openapi/read/schema-info.js';
import { escapeHtml } from '../escape.js';
import type { BlockState } from './block-state.js';
import { descriptionHtml } from './description-html.js';
import { valueText } from './json-text.js';

/**
 * Schema trees: one row per property (name, type, flags, description, facts), nested objects,
 * array items and `oneOf`/`anyOf` branches in `<details>` that open without script. A schema met
 * again below itself is cut and named; the tree stops at `LIMITS.depth` and when the block's
 * row budget is spent.
 */

export interface RowOptions {
  required?: boolean;
  deprecated?: boolean;
  /** Overrides the schema's description (parameters and headers carry their own). */
  description?: unknown;
  /** A value to show as the example, when the holder (a parameter) gives one. */
  example?: unknown;
}

/** The tree of a schema's content: its properties, or its branches, or its items'. */
export function schemaTreeHtml(
  schema: unknown,
  state: BlockState,
  mode: SchemaMode,
  path: SchemaPath = [],
  depth = 0,
): string {
  const view = viewSchema(state.reader, schema, path);
  if (view.circular !== undefined) return circularHtml(view.circular);
  if (view.broken !== undefined) return brokenHtml(view.broken);
  // Drawn in full at the top of a body, and named wherever it comes again below.
  if (view.name !== undefined) state.drawn.add(view.key);
  const body = childrenHtml(view, state, mode, path, depth);
  if (body) return body;
  // A schema with nothing below it (a plain string, a number): its type and facts in one row.
  return `<ul class="oa-props">${rowHtml(undefined, schema, {}, state, mode, path, depth)}</ul>`;
}

/** What sits below a schema: properties, the items of an array, branches; '' when nothing. */
function childrenHtml(
  view: SchemaView,
  state: BlockState,
  mode: SchemaMode,
  path: SchemaPath,
  depth: number,
): string {
  const { schema } = view;
  const below = [...path, view.key];
  let out = '';
  const properties = entries(field(schema, 'properties'), LIMITS.properties);
  if (properties.length > 0) {
    const required = new Set(items(field(schema, 'required'), LIMITS.properties));
    const rows: string[] = [];
    let left = properties.length;
    for (const [name, property] of properties) {
      if (state.nodes <= 0) break;
      left -= 1;
      const resolved = state.reader.resolve(property).value;
      if (isObject(resolved) && hiddenIn(mode, resolved)) continue;
      rows.push(rowHtml(name, property, { required: required.has(name) }, state, mode, below, depth + 1));
    }
    if (left > 0) rows.push(moreHtml(left, 'properties'));
    out += `<ul class="oa-props">${rows.join('')}</ul>`;
  }
  const extra = field(schema, 'additionalProperties');
  if (isObject(extra) && state.nodes > 0) {
    out += `<ul class="oa-props">${rowHtml('additional properties', extra, {}, state, mode, below, depth + 1, true)}</ul>`;
  }
  const variants = variantsOf(schema);
  if (variants) out += variantsHtml(variants.kind, variants.branches, schema, state, mode, below, depth);
  const { types } = schemaTypes(schema);
  if (types.includes('array') && field(schema, 'items') !== undefined && !out) {
    const itemView = viewSchema(state.reader, field(schema, 'items'), below);
    if (itemView.circular !== undefined) return circularHtml(itemView.circular);
    out += childrenHtml(itemView, state, mode, below, depth + 1);
  }
  return out;
}

function variantsHtml(
  kind: 'oneOf' | 'anyOf',
  branches: unknown[],
  parent: JsonObject,
  state: BlockState,
  mode: SchemaMode,
  path: SchemaPath,
  depth: number,
): string {
  const discriminator = field(field(parent, 'discriminator'), 'propertyName');
  const label = kind === 'oneOf' ? 'One of' : 'Any of';
  const note =
    typeof discriminator === 'string' && discriminator
      ? ` <span class="oa-muted">chosen by <code>${escapeHtml(discriminator.slice(0, LIMITS.name))}</code></span>`
      : '';
  let out = `<div class="oa-variants"><p class="oa-variants-label">${label}${note}</p>`;
  for (const [i, branch] of branches.entries()) {
    if (state.nodes <= 0) {
      out += `<p class="oa-more">${branches.length - i} more options not shown</p>`;
      break;
    }
    state.nodes -= 1;
    const view = viewSchema(state.reader, branch, path);
    const type = typeText(state.reader, view, path);
    const title = view.name ?? text(field(view.schema, 'title'), LIMITS.name) ?? type;
    const inner =
      view.circular !== undefined
        ? circularHtml(view.circular)
        : depth >= LIMITS.depth
          ? deepHtml()
          : descriptionHtml(field(view.schema, 'description'), state, 'oa-prop-desc') +
            (childrenHtml(view, state, mode, path, depth + 1) || factsHtml(schemaFacts(view.schema), state));
    const summary =
      `<span class="oa-variant-title">${escapeHtml(title)}</span>` +
      (title === type ? '' : `<span class="oa-type">${escapeHtml(type)}</span>`);
    // A branch with nothing more to say than its type is a line, not something to open.
    out += inner
      ? `<details class="oa-variant"><summary>${summary}</summary><div class="oa-variant-body">${inner}</div></details>`
      : `<div class="oa-variant oa-variant-plain">${summary}</div>`;
  }
  return `${out}</div>`;
}

/** One property (or parameter, header) row. */
export function rowHtml(
  name: string | undefined,
  schema: unknown,
  options: RowOptions,
  state: BlockState,
  mode: SchemaMode,
  path: SchemaPath,
  depth: number,
  placeholderName = false,
): string {
  state.nodes -= 1;
  const view = viewSchema(state.reader, schema, path);
  const s = view.schema;
  const type = typeText(state.reader, view, path);
  const { nullable } = schemaTypes(s);
  const flags: string[] = [];
  if (nullable) flags.push('<span class="oa-flag">nullable</span>');
  if (options.required) flags.push('<span class="oa-flag oa-required">required</span>');
  if (options.deprecated || field(s, 'deprecated') === true)
    flags.push('<span class="oa-flag oa-deprecated">deprecated</span>');
  if (field(s, 'readOnly') === true) flags.push('<span class="oa-flag">read-only</span>');
  if (field(s, 'writeOnly') === true) flags.push('<span class="oa-flag">write-only</span>');
  const nameHtml =
    name === undefined
      ? ''
      : `<code class="oa-name${placeholderName ? ' oa-name-extra' : ''}">${escapeHtml(name.slice(0, LIMITS.name))}</code>`;
  const refName =
    view.name && view.name !== type && !type.startsWith(`${view.name}[]`)
      ? `<span class="oa-ref">${escapeHtml(view.name)}</span>`
      : '';
  const head =
    `<div class="oa-prop-head">${nameHtml}<span class="oa-type">${escapeHtml(type)}</span>${refName}` +
    `${flags.join('')}</div>`;
  const description = options.description !== undefined ? options.description : field(s, 'description');
  let facts = schemaFacts(s);
  if (options.example !== undefined)
    facts = [...facts.filter((f) => f.label !== 'Example'), example(options.example)];
  const items = innermostItems(view, state, path);
  let below = '';
  if (items.circular !== undefined) below = circularHtml(items.circular);
  else if (items.broken !== undefined) below = brokenHtml(items.broken);
  else if (hasChildren(items) && items.name !== undefined && state.drawn.has(items.key))
    below = sameHtml(items.name);
  else if (hasChildren(items) && depth >= LIMITS.depth) below = deepHtml();
  else if (hasChildren(items)) {
    if (items.name !== undefined) state.drawn.add(items.key);
    below = childrenDetails(view, state, mode, path, depth);
  }
  return `<li class="oa-prop">${head}${descriptionHtml(description, state, 'oa-prop-desc')}${factsHtml(facts, state)}${below}</li>`;
}

function example(value: unknown): Fact {
  return { label: 'Example', values: [value] };
}

function childrenDetails(
  view: SchemaView,
  state: BlockState,
  mode: SchemaMode,
  path: SchemaPath,
  depth: number,
): string {
  const body = childrenHtml(view, state, mode, path, depth);
  if (!body) return '';
  const what = childLabel(view, state, mode);
  return (
    `<details class="oa-children"><summary><span class="oa-show">Show ${what}</span>` +
    `<span class="oa-hide">Hide ${what}</span></summary>${body}</details>`
  );
}

/** The items of an array (of arrays…), or the schema itself: what rows below it would show. */
function innermostItems(view: SchemaView, state: BlockState, path: SchemaPath): SchemaView {
  let current = view;
  const below = [...path];
  for (let i = 0; i < 4; i++) {
    if (current.circular !== undefined || current.broken !== undefined) break;
    const s = current.schema;
    if (!schemaTypes(s).types.includes('array') || field(s, 'items') === undefined) break;
    below.push(current.key);
    current = viewSchema(state.reader, field(s, 'items'), below);
  }
  return current;
}

/** Whether a schema has rows below it: properties or `oneOf`/`anyOf` branches. */
function hasChildren(view: SchemaView): boolean {
  const s = view.schema;
  return (
    isObject(field(s, 'properties')) ||
    isObject(field(s, 'additionalProperties')) ||
    variantsOf(s) !== undefined
  );
}

function childLabel(view: SchemaView, state: BlockState, mode: SchemaMode): string {
  let s = view.schema;
  for (let i = 0; i < 4 && schemaTypes(s).types.includes('array'); i++)
    s = viewSchema(state.reader, field(s, 'items'), [view.key]).schema;
  const count = entries(field(s, 'properties'), LIMITS.properties).filter(([, property]) => {
    const resolved = state.reader.resolve(property).value;
    return !(isObject(resolved) && hiddenIn(mode, resolved));
  }).length;
  if (count > 0) return count === 1 ? '1 property' : `${count} properties`;
  const variants = variantsOf(s);
  if (variants) return `${variants.branches.length} options`;
  return 'additional properties';
}

export function factsHtml(facts: Fact[], state: BlockState): string {
  if (facts.length === 0 || state.chars <= 0) return '';
  const rows = facts.map((fact) => {
    const values = (fact.values ?? []).map((v) => `<code>${escapeHtml(valueText(v))}</code>`).join(' ');
    const words = fact.words ? `${values ? ' ' : ''}<span>${escapeHtml(fact.words)}</span>` : '';
    return `<div><dt>${escapeHtml(fact.label)}</dt><dd>${values}${words}</dd></div>`;
  });
  const html = `<dl class="oa-facts">${rows.join('')}</dl>`;
  state.chars -= html.length;
  return html;
}

function moreHtml(count: number, what: string): string {
  return `<li class="oa-more">${count} more ${what} not shown</li>`;
}

function circularHtml(name: string): string {
  return `<p class="oa-circular">Circular reference to <code>${escapeHtml(name)}</code></p>`;
}

function brokenHtml(name: string): string {
  return `<p class="oa-broken">Refers to <code>${escapeHtml(name)}</code>, which is not in the specification.</p>`;
}

function sameHtml(name: string): string {
  return `<p class="oa-more">Properties of <code>${escapeHtml(name)}</code> as shown above.</p>`;
}

function deepHtml(): string {
  return '<p class="oa-more">Nested too deep to show here.</p>';
}
