import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkStringify, { type Options } from 'remark-stringify';
import { unified } from 'unified';
import type { Expandable, GitbookBlock, GitbookTag, InlineMath, MathBlock } from './syntax.js';

/**
 * mdast (with the GitBook nodes of `./syntax.ts`) to markdown in the style GitBook writes:
 * `*` bullets, `---` dividers, fenced code, tags on lines of their own.
 */

type Handle = NonNullable<Options['handlers']>['paragraph'] & {};

const handlers: Options['handlers'] = {
  gitbookTag: ((node: GitbookTag) => node.value) as Handle,
  gitbookBlock: ((node: GitbookBlock, _, state, info) => {
    const parts = [node.open];
    const inner = state.containerFlow(node, info);
    if (inner) parts.push(inner);
    if (node.alternate) {
      parts.push(node.elseTag ?? '{% else %}');
      const alternate = state.containerFlow({ ...node, children: node.alternate } as never, info);
      if (alternate) parts.push(alternate);
    }
    parts.push(node.close);
    return parts.join('\n');
  }) as Handle,
  expandable: ((node: Expandable, _, state, info) => {
    const inner = state.containerFlow(node, info);
    return [...node.head, ...(inner ? [inner] : []), node.close].join('\n\n');
  }) as Handle,
  // A blank line would end the block when read back; LaTeX ignores it in math anyway.
  math: ((node: MathBlock) =>
    ['$$', ...node.value.split('\n').filter((l) => l.trim()), '$$'].join('\n')) as Handle,
  inlineMath: ((node: InlineMath) => `$$${node.value}$$`) as Handle,
};

const options: Options = {
  bullet: '*',
  rule: '-',
  fences: true,
  handlers,
  // Items hold blocks separated by a blank line, except a paragraph introducing a sub-list.
  join: [(_left, right, parent) => (parent.type === 'listItem' && right.type !== 'list' ? 1 : undefined)],
  // Text that would read back as GitBook syntax: a tag line, `$$` math.
  unsafe: [
    { character: '{', after: '%', atBreak: true },
    { character: '$', after: '\\$' },
  ],
};

const processor = unified().use(remarkGfm).use(remarkStringify, options).freeze();

export function stringifyMarkdown(tree: Root): string {
  return processor.stringify(tree);
}

/** One node as markdown of its own, without the final line ending. */
export function stringifyNode(node: Nodes): string {
  const tree: Root =
    node.type === 'root' ? node : { type: 'root', children: [node as Root['children'][number]] };
  return processor.stringify(tree).replace(/\n$/, '');
}
