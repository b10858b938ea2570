import type { ContentRef } from '../document-schema.js';
import { MAX_URL, type ToDocumentContext, Unrepresentable } from './context.js';
import {
  type AnyBlock,
  type Code,
  type Column,
  codeBlock,
  type Hint,
  type Paragraph,
  type StepperStep,
  type TabsItem,
  type Update,
} from './document-types.js';
import { imageRef } from './inline-parts.js';
import { LEGACY_API_TAGS, legacyApiMethod } from './legacy-api.js';
import type { FlowContent, GitbookBlock, GitbookTag } from './syntax.js';

/**
 * `{% %}` blocks to document blocks. A tag converts when its attributes are ones GitBook writes
 * (in any order); an unknown tag, or a known one written otherwise, has no document form: the
 * caller keeps it raw (API) or draws its content (site). `{% if %}` with an `{% else %}` becomes
 * two conditional blocks, the second under the negated condition.
 */

const HINT_STYLES = new Set(['info', 'warning', 'danger', 'success']);
const BOOLEAN = new Set(['true', 'false']);

/** Tag names this module reads; any other is an unknown construct. */
export const KNOWN_TAGS = new Set([
  'hint',
  'tabs',
  'tab',
  'code',
  'content-ref',
  'page-ref',
  'embed',
  'file',
  'stepper',
  'step',
  'updates',
  'update',
  'columns',
  'column',
  'if',
  'else',
  'prompt',
  'include',
  'openapi-operation',
  'openapi-schemas',
  'openapi-webhook',
  'swagger',
  'openapi',
  'code-tabs',
  'code-tabs-item',
  ...LEGACY_API_TAGS,
]);

export function gitbookBlockToDocument(node: GitbookBlock | GitbookTag, ctx: ToDocumentContext): AnyBlock[] {
  if (node.name.startsWith('@')) return [integration(node, ctx)];
  if (!KNOWN_TAGS.has(node.name)) throw new Unrepresentable(`{% ${node.name} %}`, true);
  const attrs = node.attrs;
  if (node.type === 'gitbookTag') {
    switch (node.name) {
      case 'embed':
        return [embed(attrs, [], ctx)];
      case 'file':
        return [file(attrs, [], ctx)];
      case 'include':
        return [include(node.args, ctx)];
      case 'page-ref':
        return [contentRefTo(attrs?.page, ctx)];
      case 'openapi':
      case 'swagger':
        return [swagger(attrs, ctx)];
      default:
        throw new Unrepresentable(`{% ${node.name} %} without its closing tag`);
    }
  }
  switch (node.name) {
    case 'hint':
      return [hint(node, ctx)];
    case 'tabs':
      return [tabs(node, ctx)];
    case 'code-tabs':
      return [codeTabs(node, ctx)];
    case 'code':
      return [wrappedCode(node)];
    case 'content-ref':
      return [contentRefTo(node.attrs.url, ctx)];
    case 'embed':
      return [embed(node.attrs, node.children, ctx)];
    case 'file':
      return [file(node.attrs, node.children, ctx)];
    case 'stepper':
      return [stepper(node, ctx)];
    case 'updates':
      return [updates(node, ctx)];
    case 'columns':
      return [columns(node, ctx)];
    case 'if':
      return conditional(node, ctx);
    case 'prompt':
      return [prompt(node)];
    case 'openapi-operation':
    case 'openapi-schemas':
    case 'openapi-webhook':
      return [openapi(node)];
    case 'openapi':
    case 'swagger':
      // Without a spec file it is the hand-written API method of older GitBook.
      return node.attrs.src ? [swagger(node.attrs, ctx)] : legacyApiMethod(node, ctx, 'document');
    case 'api-method':
      return legacyApiMethod(node, ctx, 'document');
    default:
      throw new Unrepresentable(`{% ${node.name} %} here`);
  }
}

/** True when `attrs` has every key of `required` and nothing outside `known`. */
function only(
  attrs: Record<string, string> | null,
  known: string[],
  required: string[] = [],
): attrs is Record<string, string> {
  return (
    attrs !== null &&
    Object.keys(attrs).every((key) => known.includes(key)) &&
    required.every((key) => Object.hasOwn(attrs, key))
  );
}

function flag(value: string | undefined, what: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (!BOOLEAN.has(value)) throw new Unrepresentable(what);
  return value === 'true';
}

/** The one paragraph a caption is (between an embed's or a file's tags), or none. */
function caption(children: FlowContent[], ctx: ToDocumentContext): Paragraph | undefined {
  if (children.length === 0) return undefined;
  const blocks = ctx.children(children, 'cell');
  const [first, ...rest] = blocks;
  if (first?.type !== 'paragraph' || rest.length > 0) throw new Unrepresentable('caption');
  return first;
}

function embed(
  attrs: Record<string, string> | null,
  children: FlowContent[],
  ctx: ToDocumentContext,
): AnyBlock {
  if (!only(attrs, ['url', 'fullWidth', 'caption'], ['url'])) throw new Unrepresentable('embed attributes');
  if (attrs.url!.length > MAX_URL) throw new Unrepresentable('URL too long');
  const data: { url: string; fullWidth?: boolean } = { url: attrs.url! };
  const fullWidth = flag(attrs.fullWidth, 'embed fullWidth');
  if (fullWidth !== undefined) data.fullWidth = fullWidth;
  const text = caption(children, ctx) ?? legacyCaption(attrs.caption);
  return {
    object: 'block',
    type: 'embed',
    isVoid: true,
    data,
    ...(text ? { fragments: [{ object: 'fragment', fragment: 'caption', nodes: [text] }] } : {}),
  } as AnyBlock;
}

/** `caption="…"` on embeds and files of older repositories. */
function legacyCaption(value: string | undefined): Paragraph | undefined {
  if (!value) return undefined;
  return {
    object: 'block',
    type: 'paragraph',
    data: {},
    nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] }],
  };
}

/**
 * Files are references to uploaded files. A `src` the resolver does not know as a file keeps
 * its text as the file id, so that without a resolver `{% file %}` still round trips.
 */
function file(
  attrs: Record<string, string> | null,
  children: FlowContent[],
  ctx: ToDocumentContext,
): AnyBlock {
  if (!only(attrs, ['src', 'caption'], ['src'])) throw new Unrepresentable('file attributes');
  const ref = ctx.links.resolve(attrs.src!);
  const text = caption(children, ctx) ?? legacyCaption(attrs.caption);
  return {
    object: 'block',
    type: 'file',
    isVoid: true,
    data: { ref: { kind: 'file', file: ref.kind === 'file' ? ref.file : attrs.src! } },
    ...(text ? { fragments: [{ object: 'fragment', fragment: 'caption', nodes: [text] }] } : {}),
  } as AnyBlock;
}

/** `{% include "../.gitbook/includes/name.md" %}`: a reusable content of the space. */
function include(args: string, ctx: ToDocumentContext): AnyBlock {
  const path = /^"([^"]+)"$|^'([^']+)'$/.exec(args);
  if (!path) throw new Unrepresentable('include path');
  const ref = ctx.links.resolve(path[1] ?? path[2]!);
  if (ref.kind !== 'reusable-content')
    throw new Unrepresentable('include of something that is not reusable content');
  return { object: 'block', type: 'reusable-content', isVoid: true, data: { ref } };
}

/**
 * `{% @integration/block … %}`. Its props cannot be written in either official schema (their
 * `PlainObject` matches a string twice, which `oneOf` refuses), so API documents keep the tag raw;
 * the site shows an embed when the block names a URL.
 */
function integration(node: GitbookBlock | GitbookTag, ctx: ToDocumentContext): AnyBlock {
  const [, integrationName = '', blockName = ''] = /^@([\w-]+)\/([\w-]+)/.exec(node.name) ?? [];
  // GitBook's old Mermaid block holds the whole diagram, quotes unescaped, in `content`.
  if (integrationName === 'mermaid') {
    const content = /\bcontent="([\s\S]*)"\s*-?%\}$/.exec(
      node.type === 'gitbookTag' ? node.value : node.open,
    )?.[1];
    if (content !== undefined) return codeBlock(content.replace(/\\n/g, '\n'), 'mermaid');
  }
  if (!integrationName || !blockName || !node.attrs) throw new Unrepresentable('integration block');
  const url = node.attrs.url;
  if (ctx.profile !== 'render' || !url || !/^https?:\/\//.test(url) || url.length > MAX_URL)
    throw new Unrepresentable('integration block');
  return { object: 'block', type: 'embed', isVoid: true, data: { url } };
}

function hint(node: GitbookBlock, ctx: ToDocumentContext): Hint {
  const attrs = node.attrs;
  if (!only(attrs, ['style', 'icon'], ['style'])) throw new Unrepresentable('hint attributes');
  // `tip` is not a GitBook style, but repositories written by hand use it.
  const style = attrs.style === 'tip' ? 'info' : attrs.style!;
  if (!HINT_STYLES.has(style)) throw new Unrepresentable('hint style');
  const data: Hint['data'] = { style: style as Hint['data']['style'] };
  if (attrs.icon) data.icon = attrs.icon.slice(0, 50);
  return { object: 'block', type: 'hint', data, nodes: ctx.children(node.children, 'hint') as Hint['nodes'] };
}

/** Children that must all be `{% name %}` blocks (blank lines aside). */
function itemsOf(node: GitbookBlock, name: string): GitbookBlock[] {
  return node.children.map((child) => {
    if (child.type !== 'gitbookBlock' || child.name !== name)
      throw new Unrepresentable(`${node.name} content`);
    return child;
  });
}

function tabs(node: GitbookBlock, ctx: ToDocumentContext): AnyBlock {
  if (!only(node.attrs, ['fullWidth'])) throw new Unrepresentable('tabs attributes');
  const items = itemsOf(node, 'tab').map((tab): TabsItem => {
    if (!only(tab.attrs, ['title', 'icon'])) throw new Unrepresentable('tab attributes');
    const data: TabsItem['data'] = {};
    if (tab.attrs.title !== undefined) data.title = tab.attrs.title;
    if (tab.attrs.icon) data.icon = tab.attrs.icon.slice(0, 50);
    return {
      object: 'block',
      type: 'tabs-item',
      data,
      nodes: ctx.children(tab.children, 'tab') as TabsItem['nodes'],
    };
  });
  return { object: 'block', type: 'tabs', data: {}, nodes: items };
}

/** GitBook's legacy code tabs: tabs of code blocks. */
function codeTabs(node: GitbookBlock, ctx: ToDocumentContext): AnyBlock {
  const items = itemsOf(node, 'code-tabs-item').map((tab): TabsItem => {
    if (!only(tab.attrs, ['title'])) throw new Unrepresentable('code tab attributes');
    return {
      object: 'block',
      type: 'tabs-item',
      data: tab.attrs.title !== undefined ? { title: tab.attrs.title } : {},
      nodes: ctx.children(tab.children, 'tab') as TabsItem['nodes'],
    };
  });
  return { object: 'block', type: 'tabs', data: {}, nodes: items };
}

const CODE_ATTRIBUTES = ['title', 'overflow', 'lineNumbers', 'fullWidth', 'expandable'];

function wrappedCode(node: GitbookBlock): Code {
  const [inner, ...rest] = node.children;
  const attrs = node.attrs;
  if (inner?.type !== 'code' || rest.length > 0 || !only(attrs, CODE_ATTRIBUTES)) {
    throw new Unrepresentable('code block wrapper');
  }
  if (inner.meta || (inner.lang?.length ?? 0) > 64 || (attrs.title?.length ?? 0) > 256) {
    throw new Unrepresentable('code block info');
  }
  const block = codeBlock(inner.value, inner.lang ?? undefined);
  if (attrs.title !== undefined) block.data.title = attrs.title;
  if (attrs.overflow !== undefined) {
    if (attrs.overflow !== 'scroll' && attrs.overflow !== 'wrap') throw new Unrepresentable('code overflow');
    block.data.overflow = attrs.overflow;
  }
  for (const key of ['lineNumbers', 'fullWidth', 'expandable'] as const) {
    const value = flag(attrs[key], `code ${key}`);
    if (value !== undefined) block.data[key] = value;
  }
  return block;
}

/**
 * GitBook writes the target again as a link inside the block (its text is the file name, which
 * GitBook regenerates): the body is not read.
 */
function contentRefTo(url: string | undefined, ctx: ToDocumentContext): AnyBlock {
  if (!url) throw new Unrepresentable('content-ref');
  const ref = ctx.links.resolve(url);
  if (ref.kind === 'url' && ref.url.length > MAX_URL) throw new Unrepresentable('URL too long');
  return { object: 'block', type: 'content-ref', isVoid: true, data: { ref } };
}

function stepper(node: GitbookBlock, ctx: ToDocumentContext): AnyBlock {
  if (!only(node.attrs, [])) throw new Unrepresentable('stepper attributes');
  const steps = itemsOf(node, 'step').map((step): StepperStep => {
    if (!only(step.attrs, ['icon'])) throw new Unrepresentable('step attributes');
    return {
      object: 'block',
      type: 'stepper-step',
      data: step.attrs.icon ? { icon: step.attrs.icon.slice(0, 50) } : {},
      nodes: ctx.children(step.children, 'step') as StepperStep['nodes'],
    };
  });
  return { object: 'block', type: 'stepper', data: {}, nodes: steps };
}

const FORMATS = new Set(['full', 'numeric', 'short']);

function updates(node: GitbookBlock, ctx: ToDocumentContext): AnyBlock {
  if (!only(node.attrs, ['format'])) throw new Unrepresentable('updates attributes');
  const format = node.attrs.format ?? 'full';
  if (!FORMATS.has(format)) throw new Unrepresentable('updates format');
  const items = itemsOf(node, 'update').map((update): Update => {
    if (!only(update.attrs, ['date', 'tags'], ['date'])) throw new Unrepresentable('update attributes');
    const data: Update['data'] = { date: timestamp(update.attrs.date!) };
    const tags = (update.attrs.tags ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    if (tags.length > 0)
      data.tags = tags.slice(0, 50).map((tag) => ({ kind: 'tag', tag: tag.slice(0, 100) }));
    return {
      object: 'block',
      type: 'update',
      data,
      nodes: ctx.children(update.children, 'update') as Update['nodes'],
    };
  });
  return { object: 'block', type: 'updates', data: { format: format as 'full' }, nodes: items };
}

/** GitBook writes the day (`2026-04-29`); the document holds a timestamp. */
function timestamp(date: string): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  const parsed = day ? new Date(`${date.trim()}T00:00:00.000Z`) : new Date(date);
  if (Number.isNaN(parsed.getTime()) || (!day && !/^\d{4}-\d{2}-\d{2}T/.test(date)))
    throw new Unrepresentable('update date');
  return parsed.toISOString();
}

const VALIGN = new Set(['top', 'middle', 'bottom']);

function columns(node: GitbookBlock, ctx: ToDocumentContext): AnyBlock {
  if (!only(node.attrs, ['fullWidth'])) throw new Unrepresentable('columns attributes');
  const items = itemsOf(node, 'column').map((column): Column => {
    if (!only(column.attrs, ['width', 'valign'])) throw new Unrepresentable('column attributes');
    const data: Column['data'] = {};
    if (column.attrs.width !== undefined) {
      const width = /^(\d+(?:\.\d+)?)(%|px)?$/.exec(column.attrs.width.trim());
      if (!width) throw new Unrepresentable('column width');
      const value = Number(width[1]);
      data.width = width[2] === 'px' ? value : { unit: '%', value };
    }
    if (column.attrs.valign !== undefined) {
      if (!VALIGN.has(column.attrs.valign)) throw new Unrepresentable('column valign');
      data.verticalAlignment = column.attrs.valign as 'top';
    }
    return {
      object: 'block',
      type: 'column',
      data,
      nodes: ctx.children(column.children, 'column') as Column['nodes'],
    };
  });
  const data: { fullWidth?: boolean } = {};
  const fullWidth = flag(node.attrs.fullWidth, 'columns fullWidth');
  if (fullWidth !== undefined) data.fullWidth = fullWidth;
  return { object: 'block', type: 'columns', isVoid: false, data, nodes: items };
}

function conditional(node: GitbookBlock, ctx: ToDocumentContext): AnyBlock[] {
  const expression = node.args.trim();
  if (!expression || expression.length > 1000) throw new Unrepresentable('if expression');
  const out: AnyBlock[] = [
    { object: 'block', type: 'if', data: { expression }, nodes: ctx.children(node.children, 'if') as never },
  ];
  if (node.alternate)
    out.push({
      object: 'block',
      type: 'if',
      data: { expression: `!(${expression})` },
      nodes: ctx.children(node.alternate, 'if') as never,
    });
  return out;
}

const EXPANDED = new Set(['hidden', 'partial', 'full']);

function prompt(node: GitbookBlock): AnyBlock {
  const attrs = node.attrs;
  if (!only(attrs, ['description', 'icon', 'openInAIProviders', 'defaultExpanded']))
    throw new Unrepresentable('prompt attributes');
  const [inner, ...rest] = node.children;
  if (inner?.type !== 'code' || rest.length > 0 || inner.meta) throw new Unrepresentable('prompt content');
  const data: {
    description?: string;
    icon?: string;
    openInAIProviders?: boolean;
    defaultExpanded?: 'hidden' | 'partial' | 'full';
  } = {};
  if (attrs.description !== undefined) data.description = attrs.description.slice(0, 1024);
  if (attrs.icon) data.icon = attrs.icon.slice(0, 50);
  const providers = flag(attrs.openInAIProviders, 'prompt openInAIProviders');
  if (providers !== undefined) data.openInAIProviders = providers;
  if (attrs.defaultExpanded !== undefined) {
    if (!EXPANDED.has(attrs.defaultExpanded)) throw new Unrepresentable('prompt defaultExpanded');
    data.defaultExpanded = attrs.defaultExpanded as 'full';
  }
  return { object: 'block', type: 'prompt', data, nodes: [codeBlock(inner.value, inner.lang ?? undefined)] };
}

const SPEC = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

function openapi(node: GitbookBlock): AnyBlock {
  const attrs = node.attrs;
  const spec = attrs.spec;
  if (!spec || !SPEC.test(spec)) throw new Unrepresentable('openapi spec');
  const ref = { kind: 'openapi' as const, spec };
  switch (node.name) {
    case 'openapi-operation':
      if (!only(attrs, ['spec', 'path', 'method'], ['path', 'method']))
        throw new Unrepresentable('openapi-operation');
      return {
        object: 'block',
        type: 'openapi-operation',
        isVoid: true,
        data: { ref, path: attrs.path!, method: attrs.method!.toLowerCase() },
      };
    case 'openapi-webhook':
      if (!only(attrs, ['spec', 'name', 'method'], ['name', 'method']))
        throw new Unrepresentable('openapi-webhook');
      return {
        object: 'block',
        type: 'openapi-webhook',
        isVoid: true,
        data: { ref, name: attrs.name!, method: attrs.method!.toLowerCase() },
      };
    default: {
      if (!only(attrs, ['spec', 'schemas', 'grouped'], ['schemas']))
        throw new Unrepresentable('openapi-schemas');
      const schemas = attrs
        .schemas!.split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .slice(0, 100);
      const data: { ref: typeof ref; schemas: string[]; grouped?: boolean } = { ref, schemas };
      const grouped = flag(attrs.grouped, 'openapi-schemas grouped');
      if (grouped !== undefined) data.grouped = grouped;
      return { object: 'block', type: 'openapi-schemas', isVoid: true, data };
    }
  }
}

/** `{% swagger src=… path=… method=… %}` / `{% openapi src=… %}`: the spec is a file or a URL. */
function swagger(attrs: Record<string, string> | null, ctx: ToDocumentContext): AnyBlock {
  if (!only(attrs, ['src', 'path', 'method', 'expanded', 'fullWidth', 'summary'], ['src', 'path', 'method']))
    throw new Unrepresentable('swagger attributes');
  const src = attrs.src!.replace(/^<|>$/g, '');
  const resolved = imageRef(src, ctx) as ContentRef;
  const data: {
    ref: { kind: 'file'; file: string } | { kind: 'url'; url: string };
    path: string;
    method: string;
    expanded?: boolean;
    fullWidth?: boolean;
  } = { ref: resolved as never, path: attrs.path!, method: attrs.method!.toLowerCase() };
  const expanded = flag(attrs.expanded, 'swagger expanded');
  if (expanded !== undefined) data.expanded = expanded;
  const fullWidth = flag(attrs.fullWidth, 'swagger fullWidth');
  if (fullWidth !== undefined) data.fullWidth = fullWidth;
  return { object: 'block', type: 'swagger', isVoid: true, data };
}
