import type {
  FootnoteDefinition,
  Code as MdCode,
  Heading as MdHeading,
  ListItem as MdListItem,
  PhrasingContent,
  Root,
} from 'mdast';
import type { JsonDocument } from '../document-schema.js';
import { Slugger } from '../slugs.js';
import type { AnyBlock, Code, Expandable, Heading, List, Paragraph, TabsItem } from './document-types.js';
import { plainText } from './document-types.js';
import type { FromContext } from './from-context.js';
import { toPhrasing } from './from-inline.js';
import { formatTag, gitbookBlock } from './gitbook-blocks.js';
import { inlinesToHtml, preHtml } from './html-write.js';
import { imagesToMdast } from './images.js';
import { type LinkResolver, plainLinks } from './links.js';
import { stringifyMarkdown } from './stringify.js';
import { type FlowContent, type GitbookTag, RAW_SYNTAX } from './syntax.js';
import { tableFromDocument } from './tables.js';

/**
 * Document to GitBook-flavoured markdown, in the forms GitBook writes. Fields markdown has no
 * syntax for are left out: paragraph alignment, block keys. Heading ids are written (as
 * GitBook's `<a>` anchor) only when they differ from the id the heading text gives anyway.
 * Annotations become footnotes at the end of the page.
 */
export function documentToMarkdown(document: JsonDocument, links: LinkResolver = plainLinks): string {
  const definitions: FootnoteDefinition[] = [];
  const ctx: FromContext = {
    links,
    slugs: new Slugger(),
    footnote: (nodes) => {
      const label = String(definitions.length + 1);
      definitions.push({ type: 'footnoteDefinition', identifier: label, label, children: [] });
      // Bodies are written after the text, in the order the annotations come.
      definitions.at(-1)!.children = blocks(nodes, ctx) as FootnoteDefinition['children'];
      return label;
    },
  };
  const root: Root = { type: 'root', children: blocks(document.nodes as AnyBlock[], ctx) };
  root.children.push(...definitions);
  return stringifyMarkdown(root);
}

function blocks(nodes: readonly AnyBlock[], ctx: FromContext): FlowContent[] {
  return nodes.map((node) => block(node, ctx));
}

const tag = (value: string): GitbookTag => ({ type: 'gitbookTag', name: '', attrs: null, args: '', value });
const flag = (value: boolean | undefined) => (value === undefined ? undefined : String(value));

function block(node: AnyBlock, ctx: FromContext): FlowContent {
  switch (node.type) {
    case 'paragraph':
      return { type: 'paragraph', children: toPhrasing(node.nodes, ctx) };
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return heading(node, ctx);
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return list(node, ctx);
    case 'list-item':
      // Only inside lists; alone it is the list of one item.
      return list({ object: 'block', type: 'list-unordered', data: {}, nodes: [node] }, ctx);
    case 'blockquote':
      return { type: 'blockquote', children: blocks(node.nodes as AnyBlock[], ctx) as never };
    case 'divider':
      return { type: 'thematicBreak' };
    case 'code':
      return code(node, ctx);
    case 'code-line':
      return code({ object: 'block', type: 'code', data: {}, nodes: [node] }, ctx);
    case 'math':
      return { type: 'math', value: node.data.formula };
    case 'hint':
      return gitbookBlock(
        'hint',
        [
          ['style', node.data.style],
          ['icon', node.data.icon],
        ],
        blocks(node.nodes as AnyBlock[], ctx),
      );
    case 'tabs':
      return gitbookBlock(
        'tabs',
        [],
        node.nodes.map((tab) => tabsItem(tab, ctx)),
      );
    case 'tabs-item':
      return tabsItem(node, ctx);
    case 'expandable':
      return expandable(node, ctx);
    case 'images':
      return imagesToMdast(node, ctx);
    case 'image':
      return imagesToMdast({ object: 'block', type: 'images', isVoid: false, data: {}, nodes: [node] }, ctx);
    case 'table':
      return tableFromDocument(node, ctx);
    case 'embed':
    case 'file': {
      const attrs: Array<[string, string | undefined]> =
        node.type === 'embed'
          ? [
              ['url', node.data.url],
              ['fullWidth', flag(node.data.fullWidth)],
            ]
          : [['src', ctx.links.href(node.data.ref)]];
      const caption = node.fragments?.[0]?.nodes[0];
      if (!caption) return tag(formatTag(node.type, attrs));
      return gitbookBlock(node.type, attrs, [
        { type: 'paragraph', children: toPhrasing(caption.nodes, ctx) },
      ]);
    }
    case 'content-ref': {
      const href = ctx.links.href(node.data.ref);
      const link: PhrasingContent = {
        type: 'link',
        url: href,
        title: null,
        children: [{ type: 'text', value: href }],
      };
      return gitbookBlock('content-ref', [['url', href]], [{ type: 'paragraph', children: [link] }]);
    }
    case 'stepper':
      return gitbookBlock(
        'stepper',
        [],
        node.nodes.map((step) =>
          gitbookBlock('step', [['icon', step.data.icon]], blocks(step.nodes as AnyBlock[], ctx)),
        ),
      );
    case 'stepper-step':
      return gitbookBlock('step', [['icon', node.data.icon]], blocks(node.nodes as AnyBlock[], ctx));
    case 'updates':
      return gitbookBlock(
        'updates',
        [['format', node.data.format]],
        node.nodes.map((update) => updateBlock(update, ctx)),
      );
    case 'update':
      return updateBlock(node, ctx);
    case 'columns':
      return gitbookBlock(
        'columns',
        [['fullWidth', flag(node.data.fullWidth)]],
        node.nodes.map((column) => columnBlock(column, ctx)),
      );
    case 'column':
      return columnBlock(node, ctx);
    case 'if': {
      const expression = node.data.expression.replace(/\n/g, ' ').replace(/%\}/g, '% }');
      const open = `{% if ${expression} %}`;
      return { ...gitbookBlock('if', [], blocks(node.nodes as AnyBlock[], ctx)), open, args: expression };
    }
    case 'prompt': {
      const { description, icon, openInAIProviders, defaultExpanded } = node.data;
      return gitbookBlock(
        'prompt',
        [
          ['description', description],
          ['icon', icon],
          ['openInAIProviders', flag(openInAIProviders)],
          ['defaultExpanded', defaultExpanded],
        ],
        node.nodes.map((inner) => code(inner, ctx)),
      );
    }
    case 'reusable-content':
      return tag(`{% include "${ctx.links.href(node.data.ref).replace(/"/g, '%22')}" %}`);
    case 'openapi-operation':
      return gitbookBlock(
        'openapi-operation',
        [
          ['spec', node.data.ref.spec],
          ['path', node.data.path],
          ['method', node.data.method],
        ],
        [],
      );
    case 'openapi-schemas':
      return gitbookBlock(
        'openapi-schemas',
        [
          ['spec', node.data.ref.spec],
          ['schemas', node.data.schemas.join(',')],
          ['grouped', flag(node.data.grouped)],
        ],
        [],
      );
    case 'openapi-webhook':
      return gitbookBlock(
        'openapi-webhook',
        [
          ['spec', node.data.ref.spec],
          ['name', node.data.name],
          ['method', node.data.method],
        ],
        [],
      );
    case 'swagger': {
      const src = ctx.links.href(node.data.ref);
      return gitbookBlock(
        'swagger',
        [
          ['src', src],
          ['path', node.data.path],
          ['method', node.data.method],
          ['expanded', flag(node.data.expanded)],
          ['fullWidth', flag(node.data.fullWidth)],
        ],
        [
          {
            type: 'paragraph',
            children: [{ type: 'link', url: src, title: null, children: [{ type: 'text', value: src }] }],
          },
        ],
      );
    }
    case 'integration': {
      const props = Object.entries(node.data.props).map(([k, v]): [string, string] => [
        k,
        typeof v === 'string' ? v : JSON.stringify(v),
      ]);
      return tag(formatTag(`@${node.data.integration}/${node.data.block}`, props));
    }
  }
}

/** `#` is the page title in GitBook's files: document headings are written from `##`. */
function heading(node: Heading, ctx: FromContext): MdHeading {
  const children = toPhrasing(node.nodes, ctx);
  const generated = ctx.slugs.slug(plainText(node.nodes));
  const id = node.data.id;
  if (id && id !== generated) {
    children.push({ type: 'text', value: ' ' }, { type: 'html', value: `<a href="#${id}" id="${id}"></a>` });
  }
  return { type: 'heading', depth: (Number(node.type.slice(-1)) + 1) as 2 | 3 | 4, children };
}

function list(node: List, ctx: FromContext): FlowContent {
  const tasks = node.type === 'list-tasks';
  const children = node.nodes.map(
    (item): MdListItem => ({
      type: 'listItem',
      spread: false,
      checked: item.data?.checked ?? (tasks ? false : null),
      children: blocks(item.nodes as AnyBlock[], ctx) as MdListItem['children'],
    }),
  );
  const start = node.type === 'list-ordered' ? (node.data.start ?? 1) : null;
  return { type: 'list', ordered: node.type === 'list-ordered', start, spread: false, children };
}

function code(node: Code, ctx: FromContext): FlowContent {
  const { syntax, title, overflow, lineNumbers, fullWidth, expandable } = node.data;
  const hasInlines = node.nodes.some((line) => line.nodes.some((n) => n.object !== 'text'));
  // Highlighted lines (and expressions in code) have only GitBook's HTML form.
  if (syntax !== RAW_SYNTAX && (hasInlines || node.nodes.some((line) => line.data?.highlighted)))
    return { type: 'html', value: preHtml(node, ctx) };
  const value = node.nodes
    .map((line) =>
      line.nodes.flatMap((t) => (t.object === 'text' ? t.leaves.map((l) => l.text) : [])).join(''),
    )
    .join('\n');
  if (syntax === RAW_SYNTAX) return { type: 'html', value };
  const fenced: MdCode = { type: 'code', lang: syntax ?? null, meta: null, value };
  const attrs: Array<[string, string | undefined]> = [
    ['title', title],
    ['overflow', overflow],
    ['lineNumbers', flag(lineNumbers)],
    ['fullWidth', flag(fullWidth)],
    ['expandable', flag(expandable)],
  ];
  return attrs.some(([, v]) => v !== undefined) ? gitbookBlock('code', attrs, [fenced]) : fenced;
}

function tabsItem(node: TabsItem, ctx: FromContext): FlowContent {
  return gitbookBlock(
    'tab',
    [
      ['title', node.data.title],
      ['icon', node.data.icon],
    ],
    blocks(node.nodes as AnyBlock[], ctx),
  );
}

function updateBlock(node: Extract<AnyBlock, { type: 'update' }>, ctx: FromContext): FlowContent {
  const tags = node.data.tags?.map((t) => t.tag).join(',');
  // Midnight is written as the day alone, as GitBook does.
  const date = node.data.date.replace(/T00:00:00(?:\.000)?Z$/, '');
  return gitbookBlock(
    'update',
    [
      ['date', date],
      ['tags', tags || undefined],
    ],
    blocks(node.nodes as AnyBlock[], ctx),
  );
}

function columnBlock(node: Extract<AnyBlock, { type: 'column' }>, ctx: FromContext): FlowContent {
  const width = node.data.width;
  const written =
    width === undefined
      ? undefined
      : typeof width === 'number'
        ? `${width}px`
        : `${width.value}${width.unit === 'px' ? 'px' : '%'}`;
  return gitbookBlock(
    'column',
    [
      ['width', written],
      ['valign', node.data.verticalAlignment],
    ],
    blocks(node.nodes as AnyBlock[], ctx),
  );
}

function expandable(node: Expandable, ctx: FromContext): FlowContent {
  const [title, body] = node.fragments;
  const titleNodes = (title.nodes as Paragraph[]).flatMap((p) => p.nodes);
  const summary = inlinesToHtml(titleNodes, ctx);
  const open = node.data.defaultExpanded === true;
  return {
    type: 'expandable',
    head: [open ? '<details open>' : '<details>', `<summary>${summary}</summary>`],
    summary,
    open,
    close: '</details>',
    children: blocks(body.nodes as AnyBlock[], ctx),
  };
}
