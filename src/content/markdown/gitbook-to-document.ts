import type { Block } from '../document-schema.js';
import { ALLOWED } from './containers.js';
import { type Context, MAX_URL, type ToDocumentContext, Unrepresentable } from './context.js';
import { type Code, codeBlock, type Hint, type Tabs, type TabsItem } from './document-types.js';
import type { FlowContent, GitbookBlock, GitbookTag } from './syntax.js';

/**
 * `{% %}` blocks to document blocks. A tag is converted only when every attribute is one we
 * keep; anything else (an unknown tag or attribute, a caption on an embed or file, which the
 * document has no field for) stays raw markdown.
 */

const HINT_STYLES = new Set(['info', 'warning', 'danger', 'success']);
const BOOLEAN = new Set(['true', 'false']);

export function gitbookBlockToDocument(node: GitbookBlock | GitbookTag, ctx: ToDocumentContext): Block {
  const attrs = node.attrs;
  if (!attrs) throw new Unrepresentable('tag attributes');
  if (node.type === 'gitbookTag') {
    if (node.name === 'embed' && only(attrs, ['url'], ['url'])) {
      if (attrs.url!.length > MAX_URL) throw new Unrepresentable('URL too long');
      return { object: 'block', type: 'embed', isVoid: true, data: { url: attrs.url! } };
    }
    if (node.name === 'file' && only(attrs, ['src'], ['src'])) {
      return { object: 'block', type: 'file', isVoid: true, data: { ref: fileRef(attrs.src!, ctx) } };
    }
    throw new Unrepresentable(`{% ${node.name} %}`);
  }
  switch (node.name) {
    case 'hint':
      return hint(node, ctx);
    case 'tabs':
      return tabs(node, ctx);
    case 'code':
      return wrappedCode(node);
    case 'content-ref':
      return contentRef(node, ctx);
    default:
      throw new Unrepresentable(`{% ${node.name} %}`);
  }
}

/** True when `attrs` has every key of `required` and nothing outside `known`. */
function only(attrs: Record<string, string>, known: string[], required: string[] = []): boolean {
  return (
    Object.keys(attrs).every((key) => known.includes(key)) &&
    required.every((key) => Object.hasOwn(attrs, key))
  );
}

/**
 * Files are references to uploaded files. A `src` the resolver does not know as a file keeps
 * its text as the file id, so that without a resolver `{% file %}` still round trips.
 */
function fileRef(src: string, ctx: Context): { kind: 'file'; file: string } {
  const ref = ctx.links.resolve(src);
  return { kind: 'file', file: ref.kind === 'file' ? ref.file : src };
}

function hint(node: GitbookBlock, ctx: ToDocumentContext): Hint {
  const style = node.attrs.style;
  if (!only(node.attrs, ['style'], ['style']) || !HINT_STYLES.has(style!))
    throw new Unrepresentable('hint style');
  return {
    object: 'block',
    type: 'hint',
    data: { style: style as Hint['data']['style'] },
    nodes: ctx.children(node.children, ALLOWED.hint),
  };
}

function tabs(node: GitbookBlock, ctx: ToDocumentContext): Tabs {
  if (!only(node.attrs, [])) throw new Unrepresentable('tabs attributes');
  const items = node.children.map((child: FlowContent): TabsItem => {
    if (child.type !== 'gitbookBlock' || child.name !== 'tab' || !only(child.attrs, ['title'])) {
      throw new Unrepresentable('tabs content');
    }
    const data = child.attrs.title === undefined ? {} : { title: child.attrs.title };
    return { object: 'block', type: 'tabs-item', data, nodes: ctx.children(child.children, ALLOWED.tab) };
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
    const value = attrs[key];
    if (value === undefined) continue;
    if (!BOOLEAN.has(value)) throw new Unrepresentable(`code ${key}`);
    block.data[key] = value === 'true';
  }
  return block;
}

/**
 * GitBook writes the target again as a link inside the block (its text is the path, which
 * GitBook regenerates): any text is accepted, the target must be the block's.
 */
function contentRef(node: GitbookBlock, ctx: Context): Block {
  const url = node.attrs.url;
  const [inner, ...rest] = node.children;
  const link = inner?.type === 'paragraph' && inner.children.length === 1 ? inner.children[0] : undefined;
  if (
    !only(node.attrs, ['url'], ['url']) ||
    rest.length > 0 ||
    link?.type !== 'link' ||
    link.url !== url ||
    link.title
  ) {
    throw new Unrepresentable('content-ref');
  }
  const ref = ctx.links.resolve(url!);
  if (ref.kind === 'url' && ref.url.length > MAX_URL) throw new Unrepresentable('URL too long');
  return { object: 'block', type: 'content-ref', isVoid: true, data: { ref } };
}
