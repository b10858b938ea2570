import type { ContentRef, Inline, Text } from '../../content/document-schema.js';
import type { InlineImage, Leaf, Link, Mark } from '../../content/markdown/document-types.js';
import { headingId } from '../../content/slugs.js';
import { attr, emojiText, escapeHtml, isExternal } from './escape.js';
import { faIcon } from './fa-icons.js';
import { ask, colorClass, expressionValue, imageSrc, nodeText, refHref } from './refs.js';
import type { RenderContext } from './render-context.js';

/**
 * Document inlines to HTML: text leaves with marks, links, images, emoji, math, icons,
 * expressions, mentions, buttons and annotations.
 */

export { colorClass, imageSrc, nodeText, refHref } from './refs.js';

type InlineNode = Text | Inline;
type Button = Extract<Inline, { type: 'button' }>;
type Mention = Extract<Inline, { type: 'mention' }>;
type Annotation = Extract<Inline, { type: 'annotation' }>;

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

/** Past this nesting (annotations inside annotation bodies…) inlines are drawn as text. */
const MAX_INLINE_DEPTH = 40;

export function renderInlines(nodes: readonly unknown[] | undefined, ctx: RenderContext): string {
  let out = '';
  for (const node of Array.isArray(nodes) ? nodes : []) out += renderInline(node as InlineNode, ctx);
  return out;
}

function renderInline(node: InlineNode, ctx: RenderContext): string {
  if (node?.object === 'text') return renderText(node);
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
    case 'icon': {
      const color = colorClass('tc', node.data?.color);
      return `<span class="inline-icon${color ? ` ${color}` : ''}">${faIcon(node.data?.icon)}</span>`;
    }
    case 'expression': {
      const value = expressionValue(node.data?.expression, ctx);
      return value ? `<span class="expression">${escapeHtml(value)}</span>` : '';
    }
    case 'mention':
      return renderMention(node, ctx);
    case 'button':
      return renderButton(node, ctx);
    case 'annotation':
      return renderAnnotation(node, ctx);
    default:
      return escapeHtml(nodeText(node, ctx));
  }
}

function renderText(node: Text): string {
  return Array.isArray(node.leaves)
    ? node.leaves.map((leaf) => (leaf !== null && typeof leaf === 'object' ? renderLeaf(leaf) : '')).join('')
    : '';
}

function renderLeaf(leaf: Leaf): string {
  let html = escapeHtml(String(leaf?.text ?? '')).replace(/\n/g, '<br>');
  if (html === '') return '';
  const marks = (Array.isArray(leaf.marks) ? leaf.marks : [])
    .filter((mark) => typeof mark?.type === 'string')
    .sort((a, b) => MARK_ORDER.indexOf(b.type) - MARK_ORDER.indexOf(a.type));
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
    const tag = Object.hasOwn(MARK_TAGS, mark.type) ? MARK_TAGS[mark.type] : undefined;
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

/**
 * An image inside text: one line tall (`size: 'line'`, the default) or at its own size. A dark
 * variant is a second image; the stylesheet shows the one of the current theme.
 */
function renderInlineImage(node: InlineImage, ctx: RenderContext): string {
  const data = node.data;
  const src = imageSrc(data?.ref, ctx);
  const alt = typeof data?.alt === 'string' ? data.alt : '';
  if (src === undefined) return alt ? `<span class="missing-image">${escapeHtml(alt)}</span>` : '';
  const base = data?.size === 'original' ? 'inline-image inline-image-original' : 'inline-image';
  const dark = imageSrc(data?.refDark, ctx);
  const img = (className: string, source: string) =>
    `<img class="${className}"${attr('src', source)}${attr('alt', alt)} loading="lazy" decoding="async">`;
  if (dark === undefined || dark === src) return img(base, src);
  return img(`${base} light-only`, src) + img(`${base} dark-only`, dark);
}

/** A link drawn as a chip: pages by title, anchors, files by name, URLs; users by name. */
function renderMention(node: Mention, ctx: RenderContext): string {
  const ref = node.data?.ref as ContentRef | undefined;
  let label: string | undefined;
  let emoji = '';
  switch (ref?.kind) {
    case 'user': {
      const name = typeof ref.user === 'string' ? ask(() => ctx.links.user?.(ref.user)) : undefined;
      const text = typeof name === 'string' && name.trim() ? name : 'a user';
      return `<span class="mention mention-user">${escapeHtml(text)}</span>`;
    }
    case 'page':
    case 'anchor': {
      const page = ref.page;
      const info = typeof page === 'string' ? ask(() => ctx.links.pageInfo?.(page)) : undefined;
      const title = typeof info?.title === 'string' ? info.title : undefined;
      emoji = typeof info?.emoji === 'string' ? emojiText(info.emoji) : '';
      if (ref.kind === 'page') label = title;
      else label = title ? `${title} › ${ref.anchor}` : `#${String(ref.anchor ?? '')}`;
      break;
    }
    case 'file':
      label = ask(() => ctx.links.file(ref.file))?.name;
      break;
    case 'url':
      label = typeof ref.url === 'string' ? ref.url : undefined;
      break;
    default:
      return escapeHtml(nodeText(node, ctx));
  }
  const href = refHref(ref, ctx);
  const text = label || (href ?? nodeText(node, ctx)) || 'a page';
  const lead = emoji ? `<span class="mention-emoji" aria-hidden="true">${escapeHtml(emoji)}</span>` : '';
  if (href === undefined) return `<span class="mention unresolved-link">${lead}${escapeHtml(text)}</span>`;
  const external = ref.kind === 'url' && isExternal(href);
  return `<a class="mention"${attr('href', href)}${external ? ' rel="noopener"' : ''}>${lead}${escapeHtml(text)}</a>`;
}

const BUTTON_SIZES = new Set(['small', 'medium', 'large']);

/**
 * A call to action. With a reference it is a link. With an action (search, ask, select) it is
 * a `<button>` the site script wires (it opens the search box with the query, or selects the
 * tabs of a slug); without script such buttons are hidden by the stylesheet, as the search is.
 */
function renderButton(node: Button, ctx: RenderContext): string {
  const data = (node.data ?? {}) as {
    label?: unknown;
    kind?: unknown;
    size?: unknown;
    icon?: unknown;
    ref?: ContentRef;
    action?: { action?: unknown; query?: unknown; slug?: unknown };
  };
  const label = typeof data.label === 'string' ? data.label : '';
  const kind = data.kind === 'secondary' ? 'secondary' : 'primary';
  const size = typeof data.size === 'string' && BUTTON_SIZES.has(data.size) ? data.size : 'medium';
  const classes = `button button-${kind} button-${size}`;
  const glyph = data.icon === undefined ? '' : faIcon(data.icon, 'button-icon');
  const content = `${glyph}<span class="button-label">${escapeHtml(label)}</span>`;
  if (label === '' && glyph === '') return '';
  if (data.ref !== undefined) {
    const href = refHref(data.ref, ctx);
    if (href === undefined) return `<span class="${classes} unavailable">${content}</span>`;
    const external = data.ref.kind === 'url' && isExternal(href);
    return `<a class="${classes}"${attr('href', href)}${external ? ' rel="noopener"' : ''}>${content}</a>`;
  }
  const action = data.action?.action;
  if (action === 'search' || action === 'ask') {
    const query = typeof data.action?.query === 'string' ? data.action.query : undefined;
    // There is no assistant here: "ask" opens the search with the question.
    return `<button type="button" class="${classes}" data-action="search"${attr('data-query', query)}>${content}</button>`;
  }
  // Tabs carry the slug of their title (or their own slug), made the same way.
  const slug =
    action === 'select' && typeof data.action?.slug === 'string' ? headingId(data.action.slug) : '';
  if (slug) {
    return `<button type="button" class="${classes}" data-action="select"${attr('data-slug', slug)}>${content}</button>`;
  }
  return `<span class="${classes} unavailable">${content}</span>`;
}

/**
 * Annotated words with a note that shows on hover and on keyboard focus (the trigger is a
 * button, described by the note). The note is drawn with phrasing elements only: it sits inside
 * a paragraph, where a `<p>` or `<div>` would end the paragraph.
 */
function renderAnnotation(node: Annotation, ctx: RenderContext): string {
  const words = (Array.isArray(node.nodes) ? node.nodes : []).map((child) =>
    (child as { object?: unknown })?.object === 'text'
      ? renderText(child as Text)
      : escapeHtml(nodeText(child, ctx)),
  );
  const text = words.join('');
  const fragments = Array.isArray(node.fragments) ? node.fragments : [];
  const body = fragments.find((f) => f?.type === 'annotation-body') ?? fragments[0];
  if (ctx.depth > MAX_INLINE_DEPTH) return text;
  ctx.depth += 1;
  const note = phrasingBlocks(body?.nodes, ctx);
  ctx.depth -= 1;
  if (note === '') return text;
  if (text === '') return '';
  const id = ctx.elementId('Note');
  return (
    `<span class="annotation"><button type="button" class="annotation-trigger"${attr('aria-describedby', id)}>${text}</button>` +
    `<span class="annotation-body" role="note"${attr('id', id)}>${note}</span></span>`
  );
}

/** Blocks as phrasing content: paragraphs and list items as block-styled spans, code as code. */
function phrasingBlocks(nodes: readonly unknown[] | undefined, ctx: RenderContext, level = 0): string {
  if (level > MAX_INLINE_DEPTH) return '';
  let out = '';
  for (const node of Array.isArray(nodes) ? nodes : []) {
    const block = node as { object?: unknown; type?: unknown; nodes?: unknown[] };
    if (block?.object !== 'block' || block.type === 'if') continue;
    switch (block.type) {
      case 'paragraph':
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        const html = renderInlines(block.nodes, ctx);
        if (html) out += `<span class="annotation-paragraph">${html}</span>`;
        break;
      }
      case 'code':
        out += `<code class="annotation-code">${escapeHtml(
          (Array.isArray(block.nodes) ? block.nodes : []).map((line) => nodeText(line, ctx)).join('\n'),
        )}</code>`;
        break;
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks':
      case 'list-item':
      case 'blockquote':
      case 'hint':
        out += phrasingBlocks(block.nodes, ctx, level + 1);
        break;
      default: {
        const text = nodeText(block, ctx).trim();
        if (text) out += `<span class="annotation-paragraph">${escapeHtml(text)}</span>`;
      }
    }
  }
  return out;
}
