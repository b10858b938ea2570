import type { Element, ElementContent, Root as HastRoot } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { type ContentRef, isTextColor, type TextColor } from '../document-schema.js';
import { MAX_URL, type ToDocumentContext, Unrepresentable } from './context.js';
import type { Inline, InlineImage, Link, Mark } from './document-types.js';
import { text } from './document-types.js';
import { decodeHtml } from './html.js';
import { colorAllowed, type Item, inlineImage, leaf, mark, pack } from './inline-parts.js';

/**
 * The inline HTML GitBook writes, one table of element meanings read two ways: tag by tag
 * (remark splits inline HTML into one node per tag, markdown in between) and element by element
 * (HTML blocks parsed whole: table cells, figure captions, summaries).
 *
 * | element                                   | document                          |
 * | `<strong>` `<b>` `<em>` `<i>` `<s>` `<del>`| marks                             |
 * | `<kbd>` `<sup>` `<sub>` `<code>`          | marks                             |
 * | `<mark style="color:…;background-color:…">`| colour mark                       |
 * | `<code class="expression">x</code>`       | expression                        |
 * | `<i class="fa-name">:name:</i>`           | icon                              |
 * | `<a class="button primary" data-icon>`    | button (a link)                   |
 * | `<button class="button" data-action>`     | button (an action)                |
 * | `<a href>`                                | link                              |
 * | `<img>` `<picture><source><img>`          | inline image (dark variant)       |
 * | `<br>`                                    | line break                        |
 * | `<ul><li>` inside a line (table cells)    | one `• item` a line               |
 * | `<span>` `<u>` `<p>` and unknown elements | their content                     |
 */

export type Attributes = Record<string, string>;

/** A tag alone in an HTML node, as remark gives inline HTML. */
export type OpenTag =
  | { kind: 'open'; name: string; mark?: Mark | undefined; wrap?: Wrap | undefined }
  | { kind: 'close'; name: string; mark?: undefined; wrap?: undefined }
  | { kind: 'void'; name: string; items: (marks: Mark[]) => Item[]; mark?: undefined; wrap?: undefined };

type Wrap = (inside: Item[], ctx: ToDocumentContext) => Item[];

/** A `<source>` inside `<picture>`: kept until the picture closes, then gone. */
interface SourceMarker {
  object: 'inline';
  type: 'source';
  srcset: string;
  dark: boolean;
}

const VOID = new Set(['br', 'img', 'source', 'wbr', 'hr']);
const TAG =
  /^<(\/?)([a-zA-Z][\w-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>$/;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** Reads one tag (`<a href="…" class="button primary">`, `</a>`, `<br>`); null when it is not one. */
export function inlineHtmlTag(value: string, ctx: ToDocumentContext): OpenTag | null {
  const match = TAG.exec(value.trim());
  if (!match) return null;
  const [, closing, rawName = '', rawAttrs = '', selfClosing] = match;
  const name = rawName.toLowerCase();
  if (closing) return { kind: 'close', name };
  const attrs = parseAttributes(rawAttrs);
  if (VOID.has(name) || selfClosing)
    return { kind: 'void', name, items: (marks) => voidElement(name, attrs, marks, ctx) };
  const rule = elementRule(name, attrs, ctx);
  return { kind: 'open', name, mark: rule.mark, wrap: rule.wrap };
}

function parseAttributes(text: string): Attributes {
  const attrs: Attributes = {};
  for (const match of text.matchAll(ATTRIBUTE)) {
    const key = match[1]!.toLowerCase();
    const raw = match[2] ?? match[3] ?? match[4] ?? '';
    if (!Object.hasOwn(attrs, key)) attrs[key] = decodeHtml(raw) ?? raw;
  }
  return attrs;
}

interface Rule {
  mark?: Mark | undefined;
  wrap?: Wrap | undefined;
}

/** What an element with content means. */
function elementRule(name: string, attrs: Attributes, ctx: ToDocumentContext): Rule {
  const classes = (attrs.class ?? '').split(/\s+/).filter(Boolean);
  switch (name) {
    case 'strong':
    case 'b':
      return { mark: mark('bold') };
    case 'em':
      return { mark: mark('italic') };
    case 'i': {
      const fa = classes.find((c) => /^fa-[a-z0-9-]+$/.test(c) && !FA_STYLES.has(c));
      if (fa) return { wrap: () => [icon(fa.slice(3), attrs, ctx)] };
      return { mark: mark('italic') };
    }
    case 's':
    case 'del':
    case 'strike':
      return { mark: mark('strikethrough') };
    case 'kbd':
      return { mark: mark('keyboard') };
    case 'sup':
      return { mark: mark('superscript') };
    case 'sub':
      return { mark: mark('subscript') };
    case 'code':
      if (classes.includes('expression'))
        return {
          wrap: (inside) => {
            const expression = itemsText(inside).trim();
            if (!expression || expression.length > 1024) throw new Unrepresentable('expression');
            return [{ object: 'inline', type: 'expression', isVoid: true, data: { expression } }];
          },
        };
      return { mark: mark('code') };
    case 'mark':
      return { mark: colorMark(attrs.style ?? '', ctx) };
    case 'a':
      if (classes.includes('button')) return { wrap: (inside) => [button(attrs, classes, inside, ctx)] };
      if (attrs['data-footnote-ref'] !== undefined || !attrs.href) return {};
      return { wrap: (inside) => [htmlLink(attrs.href!, inside, ctx)] };
    case 'button':
      return { wrap: (inside) => [button(attrs, classes, inside, ctx)] };
    case 'picture':
      return { wrap: (inside, context) => picture(inside, context) };
    // A list written as HTML inside a line (GitBook does so in table cells): one item a line.
    case 'li':
      return { wrap: (inside) => [leaf('• ', []), ...inside, leaf('\n', [])] };
    case 'ul':
    case 'ol':
    case 'span':
    case 'u':
    case 'p':
    case 'small':
    case 'font':
    case 'label':
    case 'div':
    case 'figure':
    case 'figcaption':
      return {};
    default:
      // Unknown HTML stays raw markdown in API documents (written back as it was); the site
      // shows its content.
      if (ctx.profile !== 'render') throw new Unrepresentable(`<${name}>`, true);
      ctx.unknown(`<${name}>`);
      return {};
  }
}

/** Font Awesome's style classes, which are not icon names. */
const FA_STYLES = new Set([
  'fa-solid',
  'fa-regular',
  'fa-light',
  'fa-thin',
  'fa-duotone',
  'fa-brands',
  'fa-sharp',
]);

function voidElement(name: string, attrs: Attributes, marks: Mark[], ctx: ToDocumentContext): Item[] {
  switch (name) {
    case 'br':
      return [leaf('\n', marks)];
    case 'img': {
      if (!attrs.src) return [];
      const image = inlineImage(attrs.src, attrs.alt ?? '', ctx);
      if (attrs['data-size'] === 'line' || attrs['data-size'] === 'original')
        image.data.size = attrs['data-size'];
      return [image];
    }
    case 'source': {
      const marker: SourceMarker = {
        object: 'inline',
        type: 'source',
        srcset: (attrs.srcset ?? '').split(/\s+/)[0] ?? '',
        dark: /prefers-color-scheme:\s*dark/.test(attrs.media ?? ''),
      };
      return [marker as unknown as Item];
    }
    default:
      return [];
  }
}

/** `<picture>`: its image, with the dark `<source>` as the dark variant. */
function picture(inside: Item[], ctx: ToDocumentContext): Item[] {
  const markers = inside.filter(
    (i) => i.object === 'inline' && (i.type as string) === 'source',
  ) as unknown as SourceMarker[];
  const rest = inside.filter((i) => !(i.object === 'inline' && (i.type as string) === 'source'));
  const image = rest.find((i): i is InlineImage => i.object === 'inline' && i.type === 'inline-image');
  const dark = markers.find((m) => m.dark && m.srcset);
  if (image && dark) {
    image.data.refDark = inlineImage(dark.srcset, '', ctx).data.ref;
  }
  return rest;
}

function icon(name: string, attrs: Attributes, ctx: ToDocumentContext): Inline {
  const data: { icon: string; color?: TextColor } = { icon: name.slice(0, 50) };
  const color = /(?:^|;)\s*color\s*:\s*([^;]+)/.exec(attrs.style ?? '')?.[1]?.trim();
  if (color && isTextColor(color) && colorAllowed(color, ctx)) data.color = color;
  return { object: 'inline', type: 'icon', isVoid: true, data };
}

/** `<mark style="color:red;background-color:$primary;">`; undefined when no colour is one of the schema's. */
function colorMark(style: string, ctx: ToDocumentContext): Mark | undefined {
  const read = (property: string) => {
    const value = new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([^;]+)`).exec(style)?.[1]?.trim();
    return value && isTextColor(value) && colorAllowed(value, ctx) ? value : undefined;
  };
  const textColor = read('color');
  const background = read('background-color');
  if (!textColor && !background) return undefined;
  return {
    object: 'mark',
    type: 'color',
    data: { text: textColor ?? 'default', background: background ?? 'default' },
  };
}

/**
 * A button, on the site. 0.202.0's button schema cannot be met (each branch of its `oneOf`
 * forbids the label the `allOf` requires), and API documents validate against it, so there a
 * button that links is a link with its label, and an action button (which 0.146.0 does not
 * know) is its label.
 */
function button(attrs: Attributes, classes: string[], inside: Item[], ctx: ToDocumentContext): Item {
  const label = itemsText(inside).trim().slice(0, 256);
  const kind = classes.includes('secondary') ? 'secondary' : 'primary';
  const base: { label: string; kind: 'primary' | 'secondary'; icon?: string } = { label, kind };
  if (attrs['data-icon']) base.icon = attrs['data-icon'].slice(0, 50);
  if (attrs.href) {
    const ref = resolve(attrs.href, ctx);
    if (ctx.profile !== 'render')
      return { object: 'inline', type: 'link', data: { ref }, nodes: [text(label)] };
    return { object: 'inline', type: 'button', isVoid: true, data: { ...base, ref } };
  }
  const action = attrs['data-action'];
  if ((action === 'search' || action === 'ask') && ctx.profile === 'render') {
    const query = attrs['data-query'];
    return {
      object: 'inline',
      type: 'button',
      isVoid: true,
      data: { ...base, action: query ? { action, query: query.slice(0, 1024) } : { action } },
    };
  }
  // 0.146.0 has no action buttons: the label stays as text.
  return leaf(label, []);
}

function resolve(href: string, ctx: ToDocumentContext): ContentRef {
  const ref = ctx.links.resolve(href);
  if (ref.kind === 'url' && ref.url.length > MAX_URL) throw new Unrepresentable('URL too long');
  return ref;
}

function htmlLink(href: string, inside: Item[], ctx: ToDocumentContext): Link {
  const nodes = pack(inside).map((n): Link['nodes'][number] =>
    n.object === 'text' || n.type === 'inline-image' ? n : text(itemsText([n])),
  );
  return { object: 'inline', type: 'link', data: { ref: resolve(href, ctx) }, nodes };
}

export function itemsText(items: Item[]): string {
  let out = '';
  for (const item of items) {
    if (item.object === 'leaf') out += item.text;
    else if ('nodes' in item && Array.isArray(item.nodes))
      for (const node of item.nodes) if (node.object === 'text') for (const l of node.leaves) out += l.text;
  }
  return out;
}

/** Inlines of a fragment of HTML parsed whole; null when it holds block-level elements. */
export function htmlInlines(html: string, marks: Mark[], ctx: ToDocumentContext): Item[] | null {
  const root: HastRoot = fromHtml(html, { fragment: true });
  if (root.children.some((c) => c.type === 'element' && BLOCK_ELEMENTS.has(c.tagName))) return null;
  return hastInlines(root.children as ElementContent[], marks, ctx);
}

const BLOCK_ELEMENTS = new Set([
  'table',
  'figure',
  'ul',
  'ol',
  'pre',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'details',
  'blockquote',
  'hr',
]);

/** Attributes of a parsed element, named as in HTML (`class`, `data-card-target`, `srcset`). */
export function attributesOf(element: Element): Attributes {
  const attrs: Attributes = {};
  for (const [key, value] of Object.entries(element.properties ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    const name =
      key === 'className'
        ? 'class'
        : key.startsWith('data')
          ? `data-${key
              .slice(4)
              .replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
              .replace(/^-/, '')}`
          : key.toLowerCase();
    attrs[name] = Array.isArray(value) ? value.join(' ') : value === true ? '' : String(value);
  }
  return attrs;
}

/** Inlines of parsed HTML content (children of a cell, a caption, a summary, a paragraph). */
export function hastInlines(nodes: readonly ElementContent[], marks: Mark[], ctx: ToDocumentContext): Item[] {
  const out: Item[] = [];
  for (const node of nodes) {
    if (node.type === 'text') out.push(leaf(node.value.replace(/\s*\n\s*/g, ' '), marks));
    else if (node.type === 'element') {
      const name = node.tagName;
      const attrs = attributesOf(node);
      if (VOID.has(name)) {
        out.push(...voidElement(name, attrs, marks, ctx));
        continue;
      }
      const rule = elementRule(name, attrs, ctx);
      const inner = hastInlines(node.children, rule.mark ? [...marks, rule.mark] : marks, ctx);
      out.push(...(rule.wrap ? rule.wrap(inner, ctx) : inner));
    }
  }
  return out;
}
