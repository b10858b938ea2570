import type { Definition, Image, Link, Nodes, Parents, PhrasingContent, Root, RootContent } from 'mdast';
import { gfmProcessorFor } from './gfm-processors.js';
import { nestBlocks, parseTag } from './gitbook-blocks.js';
import { EXACT_PLACEHOLDER, INLINE_GUARD as GUARD, protect, restore, type Token } from './protect.js';
import type { FlowContent } from './syntax.js';

/**
 * GitBook-flavoured markdown to mdast: CommonMark + GFM from remark, then the GitBook nodes of
 * `./syntax.ts`. Reference links are replaced by inline ones (their definitions then say
 * nothing more), so the rest of the engine sees one link form.
 */

const FLOW_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);
const LITERAL_FIELDS = ['value', 'url', 'title', 'alt', 'lang', 'meta'] as const;

export function parseMarkdown(markdown: string): Root {
  const { text, tokens } = protect(markdown.replace(/\r\n?/g, '\n'));
  const tree = gfmProcessorFor(text).parse(text);
  revive(tree, tokens);
  inlineReferences(tree);
  return tree;
}

/** Placeholders back to GitBook nodes, GitBook tags paired, literal text restored. */
function revive(parent: Parents, tokens: Token[]): void {
  const flow = FLOW_PARENTS.has(parent.type);
  const children: RootContent[] = [];
  for (const child of parent.children as RootContent[]) {
    const node = placeholderNode(child, tokens, flow);
    const previous = children.at(-1);
    if (node.type === 'inlineMath' && previous?.type === 'text' && previous.value.endsWith(GUARD)) {
      previous.value = previous.value.slice(0, -GUARD.length);
      if (previous.value === '') children.pop();
    }
    for (const field of LITERAL_FIELDS) {
      const value = (node as unknown as Record<string, unknown>)[field];
      if (typeof value === 'string')
        (node as unknown as Record<string, string>)[field] = restore(value, tokens);
    }
    if ('children' in node) revive(node, tokens);
    children.push(node);
  }
  (parent as { children: RootContent[] }).children = flow ? nestBlocks(children as FlowContent[]) : children;
}

function placeholderNode(node: RootContent, tokens: Token[], flow: boolean): RootContent {
  if (node.type !== 'html') return node;
  const match = EXACT_PLACEHOLDER.exec(node.value);
  const token = match ? tokens[Number(match[1])] : undefined;
  if (!token) return node;
  switch (token.kind) {
    case 'tag':
      return flow ? parseTag(token.source) : { type: 'text', value: token.source };
    case 'math':
      return flow ? { type: 'math', value: token.formula! } : { type: 'text', value: token.source };
    case 'inline-math': {
      const math: PhrasingContent = { type: 'inlineMath', value: token.formula! };
      return flow ? { type: 'paragraph', children: [math] } : math;
    }
    case 'raw':
      return { type: 'html', value: token.source };
  }
}

/**
 * `[text][id]` and `![alt][id]` become inline links and images. Definitions used that way are
 * removed; unused ones stay (they become raw markdown in documents).
 */
function inlineReferences(tree: Root): void {
  const definitions = new Map<string, Definition>();
  walk(tree, (node) => {
    if (node.type === 'definition' && !definitions.has(node.identifier))
      definitions.set(node.identifier, node);
  });
  if (definitions.size === 0) return;
  const used = new Set<Definition>();
  const replace = (parent: Parents): void => {
    const children = parent.children as RootContent[];
    for (const [index, node] of children.entries()) {
      if (node.type === 'linkReference' || node.type === 'imageReference') {
        const definition = definitions.get(node.identifier);
        if (!definition) continue;
        used.add(definition);
        const target = { url: definition.url, title: definition.title ?? null };
        children[index] =
          node.type === 'linkReference'
            ? ({ type: 'link', ...target, children: node.children } satisfies Link)
            : ({ type: 'image', ...target, alt: node.alt ?? null } satisfies Image);
      }
      if ('children' in children[index]!) replace(children[index] as Parents);
    }
  };
  replace(tree);
  const prune = (parent: Parents): void => {
    const children = parent.children as RootContent[];
    (parent as { children: RootContent[] }).children = children.filter(
      (node) => !(node.type === 'definition' && used.has(node)),
    );
    for (const node of parent.children as RootContent[]) if ('children' in node) prune(node);
  };
  prune(tree);
}

/** Visits nodes depth first; a visitor returning `false` skips the children. */
export function walk(node: Nodes, visit: (node: Nodes) => unknown): void {
  if (visit(node) === false) return;
  if ('children' in node) for (const child of node.children) walk(child, visit);
}
