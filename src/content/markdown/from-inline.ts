import type { PhrasingContent } from 'mdast';
import type { InlineNode, Leaf, Mark, MarkType } from './document-types.js';
import type { FromContext } from './from-context.js';
import { inlineHtml } from './html-write.js';
import { HTML_MARKS, MARK_ORDER } from './inline-parts.js';

/**
 * Document inlines to mdast phrasing content. Leaves are a flat list with marks; markdown
 * nests them, so marks stay open across leaves that share them (`**a *b***`, not `**a****b**`)
 * and links keep outside the marks common to all their text.
 */

interface Open {
  /** The mark's type, and for colours the colours (`color:red:default`). */
  mark: string;
  value: Mark;
  children: PhrasingContent[];
}

/** Marks written around their text (code is written as code spans instead). */
const WRAPPING = new Set<MarkType>(MARK_ORDER.filter((mark) => mark !== 'code'));

function markKey(mark: Mark): string {
  return mark.type === 'color' ? `color:${mark.data.text}:${mark.data.background}` : mark.type;
}

export function toPhrasing(nodes: readonly InlineNode[], ctx: FromContext, cell = false): PhrasingContent[] {
  const content = phrasing(nodes, ctx, cell, new Set());
  // A backslash break ending a paragraph would read back as a backslash: GitBook's `<br>` does not.
  let last = content.at(-1);
  let siblings = content;
  while (last && 'children' in last && last.type !== 'link') {
    siblings = last.children;
    last = siblings.at(-1);
  }
  if (last?.type === 'break') siblings[siblings.length - 1] = { type: 'html', value: '<br>' };
  return content;
}

function phrasing(
  nodes: readonly InlineNode[],
  ctx: FromContext,
  cell: boolean,
  outer: ReadonlySet<string>,
): PhrasingContent[] {
  const root: PhrasingContent[] = [];
  const stack: Open[] = [];
  const top = () => stack.at(-1)?.children ?? root;
  const close = (depth: number) => {
    while (stack.length > depth) {
      const open = stack.pop()!;
      top().push(...wrap(open));
    }
  };
  const sync = (marks: Mark[]) => {
    const keys = marks.map(markKey);
    let keep = 0;
    while (keep < stack.length && keys.includes(stack[keep]!.mark)) keep++;
    close(keep);
    for (const [i, mark] of marks.entries())
      if (!stack.some((open) => open.mark === keys[i]))
        stack.push({ mark: keys[i]!, value: mark, children: [] });
  };
  const wrapping = (leaf: Leaf): Mark[] =>
    MARK_ORDER.flatMap((type) => {
      const mark = leaf.marks.find((x) => x.type === type);
      return mark && WRAPPING.has(type) && !outer.has(markKey(mark)) ? [mark] : [];
    });

  for (const node of mergeLeaves(nodes)) {
    if (node.object === 'text') {
      for (const leaf of node.leaves) {
        if (leaf.text === '') continue;
        sync(wrapping(leaf));
        const code = leaf.marks.some((mark) => mark.type === 'code');
        top().push(...leafContent(leaf.text, code, cell));
      }
      continue;
    }
    switch (node.type) {
      case 'link': {
        const leaves = node.nodes.flatMap((child) => (child.object === 'text' ? child.leaves : []));
        if (leaves.length > 0) {
          const shared = leaves
            .map(wrapping)
            .reduce((a, b) => a.filter((mark) => b.some((other) => markKey(other) === markKey(mark))));
          sync(shared);
        }
        const inside = new Set([...outer, ...stack.map((open) => open.mark)]);
        top().push({
          type: 'link',
          url: ctx.links.href(node.data.ref),
          title: null,
          children: phrasing(node.nodes, ctx, cell, inside),
        });
        break;
      }
      case 'inline-image':
        if (node.data.size || node.data.refDark || node.data.caption)
          top().push({ type: 'html', value: inlineHtml(node, ctx) });
        else
          top().push({
            type: 'image',
            url: ctx.links.href(node.data.ref),
            alt: node.data.alt ?? '',
            title: null,
          });
        break;
      case 'inline-math':
        top().push({ type: 'inlineMath', value: node.data.formula });
        break;
      case 'emoji':
        top().push({ type: 'text', value: emoji(node.data.code) });
        break;
      case 'annotation': {
        const label = ctx.footnote(node.fragments[0]?.nodes ?? []);
        const words = phrasing(node.nodes, ctx, cell, new Set([...outer, ...stack.map((open) => open.mark)]));
        // GitBook links the annotated words to their footnote; without words, the reference alone.
        if (words.length > 0)
          top().push({ type: 'link', url: `#user-content-fn-${label}`, title: null, children: words });
        top().push({ type: 'footnoteReference', identifier: label, label });
        break;
      }
      case 'mention':
        top().push({
          type: 'link',
          url: ctx.links.href(node.data.ref),
          title: 'mention',
          children: [{ type: 'text', value: ctx.links.href(node.data.ref) }],
        });
        break;
      default:
        top().push({ type: 'html', value: inlineHtml(node, ctx) });
    }
  }
  close(0);
  return root;
}

/**
 * Adjacent leaves with the same marks (in any order) as one: documents from clients need not
 * be normalised, and two code leaves side by side would otherwise write "`a``b`".
 */
function mergeLeaves(nodes: readonly InlineNode[]): InlineNode[] {
  const out: InlineNode[] = [];
  let current: Leaf[] | null = null;
  const key = (leaf: Leaf) =>
    leaf.marks
      .map((mark) => (mark.type === 'color' ? JSON.stringify(mark) : mark.type))
      .sort()
      .join();
  for (const node of nodes) {
    if (node.object !== 'text') {
      out.push(node);
      current = null;
      continue;
    }
    if (!current) {
      current = [];
      out.push({ object: 'text', leaves: current });
    }
    for (const leaf of node.leaves) {
      const last = current.at(-1);
      if (last && key(last) === key(leaf))
        current[current.length - 1] = { ...last, text: last.text + leaf.text };
      else if (leaf.text) current.push(leaf);
    }
  }
  return out;
}

function leafContent(value: string, code: boolean, cell: boolean): PhrasingContent[] {
  if (code) return [{ type: 'inlineCode', value }];
  const out: PhrasingContent[] = [];
  for (const [i, line] of value.split('\n').entries()) {
    // GFM table cells are one line: GitBook writes line breaks in them as `<br>`.
    if (i > 0) out.push(cell ? { type: 'html', value: '<br>' } : { type: 'break' });
    if (line) out.push({ type: 'text', value: line });
  }
  return out;
}

function wrap(open: Open): PhrasingContent[] {
  if (open.value.type === 'color') {
    const { text, background } = open.value.data;
    const style = `${text !== 'default' ? `color:${text};` : ''}${background !== 'default' ? `background-color:${background};` : ''}`;
    return [
      { type: 'html', value: `<mark style="${style}">` },
      ...open.children,
      { type: 'html', value: '</mark>' },
    ];
  }
  switch (open.mark) {
    case 'bold':
      return [{ type: 'strong', children: open.children }];
    case 'italic':
      return [{ type: 'emphasis', children: open.children }];
    case 'strikethrough':
      return [{ type: 'delete', children: open.children }];
    default: {
      const tag = HTML_MARKS[open.mark as MarkType] ?? 'span';
      return [{ type: 'html', value: `<${tag}>` }, ...open.children, { type: 'html', value: `</${tag}>` }];
    }
  }
}

/** GitBook emoji codes are code points in hex (`1f44d`, `1f44d-1f3fb`). */
function emoji(code: string): string {
  const points = code.split('-').map((hex) => Number.parseInt(hex, 16));
  if (points.some((p) => !Number.isInteger(p) || p < 0 || p > 0x10ffff)) return `:${code}:`;
  return String.fromCodePoint(...points);
}
