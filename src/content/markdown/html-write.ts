import { escapeMarkdownHtml } from '../../html-escape.js';
import type { AnyBlock, Image, Inline, InlineNode, Leaf, Mark } from './document-types.js';
import type { FromContext } from './from-context.js';
import { MARK_ORDER } from './inline-parts.js';

/**
 * Document nodes to the HTML GitBook writes where markdown has no syntax: inline elements in
 * text (buttons, icons, expressions, sized or themed images) and whole HTML blocks (table
 * cells, captions, summaries), where markdown is not read and everything must be HTML.
 */

const MARK_TAGS: Partial<Record<Mark['type'], string>> = {
  bold: 'strong',
  italic: 'em',
  strikethrough: 's',
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
  code: 'code',
};

/** One inline with no markdown form, as GitBook's HTML. */
export function inlineHtml(node: Inline, ctx: FromContext): string {
  switch (node.type) {
    case 'button': {
      const data = node.data;
      const icon = data.icon ? ` data-icon="${escapeMarkdownHtml(data.icon)}"` : '';
      const label = escapeMarkdownHtml(data.label);
      if ('ref' in data)
        return `<a href="${escapeMarkdownHtml(ctx.links.href(data.ref))}" class="button ${data.kind}"${icon}>${label}</a>`;
      const action = data.action;
      const query =
        'query' in action && action.query ? ` data-query="${escapeMarkdownHtml(action.query)}"` : '';
      const name = action.action === 'select' ? 'select' : action.action;
      return `<button type="button" class="button ${data.kind}" data-action="${name}"${query}${icon}>${label}</button>`;
    }
    case 'icon': {
      const style =
        node.data.color && node.data.color !== 'default' ? ` style="color:${node.data.color};"` : '';
      return `<i class="fa-${escapeMarkdownHtml(node.data.icon)}"${style}>:${escapeMarkdownHtml(node.data.icon)}:</i>`;
    }
    case 'expression':
      return `<code class="expression">${escapeMarkdownHtml(node.data.expression)}</code>`;
    case 'inline-image': {
      const { ref, refDark, alt = '', size } = node.data;
      const img = `<img src="${escapeMarkdownHtml(ctx.links.href(ref))}" alt="${escapeMarkdownHtml(alt)}"${size ? ` data-size="${size}"` : ''}>`;
      if (!refDark) return img;
      return `<picture><source srcset="${escapeMarkdownHtml(ctx.links.href(refDark))}" media="(prefers-color-scheme: dark)">${img}</picture>`;
    }
    case 'link':
      return `<a href="${escapeMarkdownHtml(ctx.links.href(node.data.ref))}">${inlinesToHtml(node.nodes, ctx)}</a>`;
    case 'inline-math':
      return `$$${escapeMarkdownHtml(node.data.formula)}$$`;
    case 'emoji':
      return escapeMarkdownHtml(emojiOf(node.data.code));
    case 'mention':
      return `<a href="${escapeMarkdownHtml(ctx.links.href(node.data.ref))}">${escapeMarkdownHtml(ctx.links.href(node.data.ref))}</a>`;
    case 'annotation':
      return inlinesToHtml(node.nodes, ctx);
  }
}

function emojiOf(code: string): string {
  const points = code.split('-').map((hex) => Number.parseInt(hex, 16));
  if (points.some((p) => !Number.isInteger(p) || p < 0 || p > 0x10ffff)) return `:${code}:`;
  return String.fromCodePoint(...points);
}

/** Inlines as HTML: leaves in their mark elements, outermost first. */
export function inlinesToHtml(nodes: readonly InlineNode[], ctx: FromContext): string {
  let out = '';
  for (const node of nodes) {
    if (node.object === 'text') for (const leaf of node.leaves) out += leafHtml(leaf);
    else out += inlineHtml(node, ctx);
  }
  return out;
}

function leafHtml(leaf: Leaf): string {
  let html = escapeMarkdownHtml(leaf.text).replace(/\n/g, '<br>');
  for (const type of [...MARK_ORDER].reverse()) {
    const mark = leaf.marks.find((m) => m.type === type);
    if (!mark) continue;
    if (mark.type === 'color') {
      const { text, background } = mark.data;
      const style = `${text !== 'default' ? `color:${text};` : ''}${background !== 'default' ? `background-color:${background};` : ''}`;
      html = `<mark style="${style}">${html}</mark>`;
    } else {
      const tag = MARK_TAGS[mark.type];
      if (tag) html = `<${tag}>${html}</${tag}>`;
    }
  }
  return html;
}

/** Blocks as HTML, for the inside of HTML blocks (table cells). */
export function blocksToHtml(blocks: readonly AnyBlock[], ctx: FromContext): string {
  return blocks.map((block) => blockHtml(block, ctx)).join('');
}

function blockHtml(block: AnyBlock, ctx: FromContext): string {
  switch (block.type) {
    case 'paragraph':
      return `<p>${inlinesToHtml(block.nodes, ctx)}</p>`;
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const level = Number(block.type.slice(-1)) + 1;
      return `<h${level}>${inlinesToHtml(block.nodes, ctx)}</h${level}>`;
    }
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks': {
      const tag = block.type === 'list-ordered' ? 'ol' : 'ul';
      return `<${tag}>${block.nodes.map((item) => `<li>${blocksToHtml(item.nodes as AnyBlock[], ctx)}</li>`).join('')}</${tag}>`;
    }
    case 'blockquote':
      return `<blockquote>${blocksToHtml(block.nodes as AnyBlock[], ctx)}</blockquote>`;
    case 'divider':
      return '<hr>';
    case 'code':
      return preHtml(block, ctx);
    case 'images':
      return block.nodes.map((image) => figureHtml(image, ctx)).join('');
    default:
      // Blocks GitBook never puts in an HTML cell: their text.
      return `<p>${escapeMarkdownHtml(blockText(block))}</p>`;
  }
}

function blockText(block: unknown): string {
  if (!block || typeof block !== 'object') return '';
  const node = block as { leaves?: Array<{ text: string }>; nodes?: unknown[]; fragments?: unknown[] };
  if (node.leaves) return node.leaves.map((l) => l.text).join('');
  return [...(node.nodes ?? []), ...(node.fragments ?? [])].map(blockText).join(' ').trim();
}

/** GitBook's `<pre>` form of a code block (its form for highlighted lines). */
export function preHtml(block: Extract<AnyBlock, { type: 'code' }>, ctx: FromContext): string {
  const { syntax, title, overflow, lineNumbers, fullWidth, expandable } = block.data;
  let attrs = syntax ? ` class="language-${escapeMarkdownHtml(syntax)}"` : '';
  if (title !== undefined) attrs += ` data-title="${escapeMarkdownHtml(title)}"`;
  if (overflow === 'wrap') attrs += ' data-overflow="wrap"';
  if (lineNumbers) attrs += ' data-line-numbers';
  if (fullWidth !== undefined) attrs += ` data-full-width="${fullWidth}"`;
  if (expandable) attrs += ' data-expandable="true"';
  const lines = block.nodes.map((line) => {
    const content = line.nodes
      .map((n) =>
        n.object === 'text' ? n.leaves.map((l) => escapeMarkdownHtml(l.text)).join('') : inlineHtml(n, ctx),
      )
      .join('');
    return line.data?.highlighted ? `<strong>${content}\n</strong>` : `${content}\n`;
  });
  const code = syntax ? `<code class="lang-${escapeMarkdownHtml(syntax)}">` : '<code>';
  return `<pre${attrs}>${code}${lines.join('')}</code></pre>`;
}

/** One image as GitBook's `<figure>` (or `<picture>` inside it for a dark variant). */
export function figureHtml(node: Image, ctx: FromContext): string {
  const { ref, refDark, alt = '', width, height } = node.data;
  let img = `<img src="${escapeMarkdownHtml(ctx.links.href(ref))}" alt="${escapeMarkdownHtml(alt)}"`;
  for (const [name, size] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (size === undefined) continue;
    img +=
      typeof size === 'number'
        ? ` ${name}="${Math.round(size)}"`
        : ` ${name}="${size.value}${size.unit === '%' ? '%' : ''}"`;
  }
  img += '>';
  if (refDark)
    img = `<picture><source srcset="${escapeMarkdownHtml(ctx.links.href(refDark))}" media="(prefers-color-scheme: dark)">${img}</picture>`;
  const caption = node.fragments[0];
  if (!caption) return `<figure>${img}</figure>`;
  const html = inlinesToHtml(
    caption.nodes.flatMap((p) => p.nodes),
    ctx,
  );
  return `<figure>${img}<figcaption>${html ? `<p>${html}</p>` : ''}</figcaption></figure>`;
}
