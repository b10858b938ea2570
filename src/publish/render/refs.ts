import { type ContentRef, TEXT_COLORS } from '../../content/document-schema.js';
import { emojiText, safeHref, safeSrc } from './escape.js';
import type { RenderContext } from './render-context.js';

/**
 * What the renderer reads from references and from the site's hooks: link targets, image
 * sources, colour classes, plain text of nodes. No HTML is built here.
 */

/**
 * Calls one of the site's optional hooks; a hook that throws counts as one that knows nothing
 * (undefined), so a bad expression or a failing lookup never breaks the page.
 */
export function ask<T>(call: () => T): T | undefined {
  try {
    return call();
  } catch {
    return undefined;
  }
}

/**
 * Where a content reference points, or undefined when it cannot be linked: unknown pages and
 * files, spaces and users (the site has no page for them), URLs with an unsafe scheme.
 */
export function refHref(ref: ContentRef | undefined, ctx: RenderContext): string | undefined {
  switch (ref?.kind) {
    case 'url': {
      if (typeof ref.url !== 'string') return undefined;
      const url = safeHref(ref.url);
      return url === undefined ? undefined : safeHref(ask(() => ctx.links.url(url)));
    }
    case 'page':
      if (typeof ref.page !== 'string') return undefined;
      return safeHref(ask(() => ctx.links.page(ref.page)));
    case 'anchor':
      if (typeof ref.anchor !== 'string') return undefined;
      if (ref.page === undefined) return `#${encodeURIComponent(ref.anchor)}`;
      if (typeof ref.page !== 'string') return undefined;
      return safeHref(ask(() => ctx.links.page(ref.page!, ref.anchor)));
    case 'file':
      if (typeof ref.file !== 'string') return undefined;
      return safeHref(ask(() => ctx.links.file(ref.file))?.href);
    default:
      return undefined;
  }
}

/** The source of an image reference: an uploaded file or an http(s)/relative URL. */
export function imageSrc(ref: unknown, ctx: RenderContext): string | undefined {
  const r = ref as { kind?: unknown; url?: unknown; file?: unknown } | null | undefined;
  if (r?.kind === 'url' && typeof r.url === 'string') {
    const url = safeSrc(r.url);
    return url === undefined ? undefined : safeSrc(ask(() => ctx.links.url(url)));
  }
  if (r?.kind === 'file' && typeof r.file === 'string') {
    const file = r.file;
    return safeSrc(ask(() => ctx.links.file(file))?.href);
  }
  return undefined;
}

/** Text colours of the schema but `default`, as class-name suffixes (`$primary` -> `primary`). */
const COLORS: ReadonlySet<string> = new Set(
  TEXT_COLORS.filter((c) => c !== 'default').map((c) => c.replace(/^\$/, '')),
);

/** `tc-green`, `bg-primary`…: a class for a colour of the fixed palette, else undefined. */
export function colorClass(prefix: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.replace(/^\$/, '');
  return COLORS.has(name) ? `${prefix}-${name}` : undefined;
}

/** The value of an inline expression, through the site's hook; undefined when unknown. */
export function expressionValue(expression: unknown, ctx: RenderContext): string | undefined {
  if (typeof expression !== 'string') return undefined;
  const value = ask(() => ctx.links.expression?.(expression));
  return typeof value === 'string' ? value : undefined;
}

/**
 * The plain text of any node: leaves, emoji and math included, marks ignored. Used for
 * heading titles and for nodes the renderer does not know (drawn as their escaped text).
 * Content of `if` blocks is never included (its condition is not known here), and inline
 * expressions give their value when `ctx` can tell it.
 */
export function nodeText(node: unknown, ctx?: RenderContext): string {
  if (node === null || typeof node !== 'object') return '';
  const n = node as {
    object?: unknown;
    type?: unknown;
    leaves?: unknown;
    text?: unknown;
    nodes?: unknown;
    fragments?: unknown;
    data?: { code?: unknown; formula?: unknown; expression?: unknown };
  };
  if (n.object === 'leaf') return typeof n.text === 'string' ? n.text : '';
  if (n.object === 'block' && n.type === 'if') return '';
  if (n.object === 'inline' && n.type === 'emoji' && typeof n.data?.code === 'string')
    return emojiText(n.data.code);
  if (n.object === 'inline' && n.type === 'inline-math' && typeof n.data?.formula === 'string')
    return n.data.formula;
  if (n.object === 'inline' && n.type === 'expression')
    return ctx ? (expressionValue(n.data?.expression, ctx) ?? '') : '';
  let out = '';
  for (const key of ['leaves', 'nodes', 'fragments'] as const) {
    const children = n[key];
    if (Array.isArray(children)) for (const child of children) out += nodeText(child, ctx);
  }
  return out;
}
