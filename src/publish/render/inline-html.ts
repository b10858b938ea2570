import type { ContentRef, Inline, Text } from '../../content/document-schema.js';
import type { InlineImage, Leaf, Link, Mark } from '../../content/markdown/document-types.js';
import { attr, emojiText, escapeHtml, isExternal, safeHref, safeSrc } from './escape.js';
import type { RenderContext } from './render-context.js';

/** Document inlines (text leaves with marks, links, images, emoji, math) to HTML. */

type InlineNode = Text | Inline;

const MARK_TAGS: Partial<Record<Mark['type'], string>> = {
  bold: 'strong',
  italic: 'em',
  strikethrough: 's',
  code: 'code',
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
};

/** Outermost first, so `**`code`**` is `<strong><code>`. */
const MARK_ORDER: ReadonlyArray<Mark['type']> = [
  'color',
  'bold',
  'italic',
  'strikethrough',
  'superscript',
  'subscript',
  'keyboard',
  'code',
];

/** Text colours of the schema, as class-name suffixes (`$primary` -> `primary`). */
const COLORS = new Set([
  'green',
  'blue',
  'red',
  'orange',
  'yellow',
  'purple',
  'primary',
  'info',
  'success',
  'warning',
  'danger',
]);

function colorClass(prefix: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.replace(/^\$/, '');
  return COLORS.has(name) ? `${prefix}-${name}` : undefined;
}

export function renderInlines(nodes: readonly unknown[] | undefined, ctx: RenderContext): string {
  let out = '';
  for (const node of nodes ?? []) out += renderInline(node as InlineNode, ctx);
  return out;
}

function renderInline(node: InlineNode, ctx: RenderContext): string {
  if (node?.object === 'text') return (node.leaves ?? []).map(renderLeaf).join('');
  if (node?.object !== 'inline') return escapeHtml(nodeText(node));
  switch (node.type) {
    case 'link':
      return renderLink(node, ctx);
    case 'inline-image':
      return renderInlineImage(node, ctx);
    case 'emoji':
      return `<span class="emoji">${escapeHtml(emojiText(String(node.data?.code ?? '')))}</span>`;
    case 'inline-math':
      return `<code class="math">${escapeHtml(String(node.data?.formula ?? ''))}</code>`;
    default:
      return escapeHtml(nodeText(node));
  }
}

function renderLeaf(leaf: Leaf): string {
  let html = escapeHtml(String(leaf.text ?? '')).replace(/\n/g, '<br>');
  if (html === '') return '';
  const marks = [...(leaf.marks ?? [])].sort(
    (a, b) => MARK_ORDER.indexOf(b.type) - MARK_ORDER.indexOf(a.type),
  );
  const seen = new Set<string>();
  for (const mark of marks) {
    if (seen.has(mark.type)) continue;
    seen.add(mark.type);
    if (mark.type === 'color') {
      const classes = [colorClass('tc', mark.data?.text), colorClass('bg', mark.data?.background)].filter(
        Boolean,
      );
      if (classes.length > 0) html = `<span class="${classes.join(' ')}">${html}</span>`;
      continue;
    }
    const tag = MARK_TAGS[mark.type];
    if (tag) html = `<${tag}>${html}</${tag}>`;
  }
  return html;
}

function renderLink(node: Link, ctx: RenderContext): string {
  const inner = renderInlines(node.nodes, ctx);
  const href = refHref(node.data?.ref, ctx);
  if (href === undefined) return `<span class="unresolved-link">${inner}</span>`;
  // Page and file links are absolute URLs too: only URL references can leave the site.
  const external = node.data?.ref?.kind === 'url' && isExternal(href);
  return `<a${attr('href', href)}${external ? ' class="external" rel="noopener"' : ''}>${inner}</a>`;
}

function renderInlineImage(node: InlineImage, ctx: RenderContext): string {
  const src = imageSrc(node.data?.ref, ctx);
  const alt = String(node.data?.alt ?? '');
  if (src === undefined) return alt ? `<span class="missing-image">${escapeHtml(alt)}</span>` : '';
  return `<img class="inline-image"${attr('src', src)}${attr('alt', alt)} loading="lazy" decoding="async">`;
}

/**
 * Where a content reference points, or undefined when it cannot be linked: unknown pages and
 * files, spaces and users (the site has no page for them), URLs with an unsafe scheme.
 */
export function refHref(ref: ContentRef | undefined, ctx: RenderContext): string | undefined {
  switch (ref?.kind) {
    case 'url': {
      const url = safeHref(ref.url);
      return url === undefined ? undefined : safeHref(ctx.links.url(url));
    }
    case 'page':
      return safeHref(ctx.links.page(ref.page));
    case 'anchor':
      if (ref.page === undefined) return `#${encodeURIComponent(ref.anchor)}`;
      return safeHref(ctx.links.page(ref.page, ref.anchor));
    case 'file':
      return safeHref(ctx.links.file(ref.file)?.href);
    default:
      return undefined;
  }
}

/** The source of an image reference: an uploaded file or an http(s)/relative URL. */
export function imageSrc(ref: { kind: string; url?: string; file?: string } | undefined, ctx: RenderContext) {
  if (ref?.kind === 'url' && typeof ref.url === 'string') {
    const url = safeSrc(ref.url);
    return url === undefined ? undefined : safeSrc(ctx.links.url(url));
  }
  if (ref?.kind === 'file' && typeof ref.file === 'string') return safeSrc(ctx.links.file(ref.file)?.href);
  return undefined;
}

/**
 * The plain text of any node: leaves, emoji and math included, marks ignored. Used for
 * heading titles and for nodes the renderer does not know (drawn as their escaped text).
 */
export function nodeText(node: unknown): string {
  if (node === null || typeof node !== 'object') return '';
  const n = node as {
    object?: unknown;
    type?: unknown;
    leaves?: unknown;
    text?: unknown;
    nodes?: unknown;
    fragments?: unknown;
    data?: { code?: unknown; formula?: unknown };
  };
  if (n.object === 'leaf') return typeof n.text === 'string' ? n.text : '';
  if (n.object === 'inline' && n.type === 'emoji' && typeof n.data?.code === 'string')
    return emojiText(n.data.code);
  if (n.object === 'inline' && n.type === 'inline-math' && typeof n.data?.formula === 'string')
    return n.data.formula;
  let out = '';
  for (const key of ['leaves', 'nodes', 'fragments'] as const) {
    const children = n[key];
    if (Array.isArray(children)) for (const child of children) out += nodeText(child);
  }
  return out;
}
