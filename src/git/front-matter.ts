import { isMap, parseDocument, type Document as YamlDocument } from 'yaml';
import { DEFAULT_LAYOUT, type PageLayout } from '../content/tree.js';

/**
 * Page files in GitBook's git format: optional YAML front matter, then `# Title`, then the body.
 * The body is kept byte for byte, and so is the head (front matter and title line): a page
 * whose fields did not change is written back exactly as it was read, unknown keys, comments
 * and quoting included. When fields change, the front matter is edited in place (other keys and
 * their formatting stay) rather than regenerated.
 */

export interface PageFields {
  title?: string;
  description?: string;
  icon?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: PageLayout;
  /** `cover:` as written (a path relative to the page file, or a URL), with its position. */
  cover?: { src: string; srcDark?: string; yPos: number; height?: number };
  /** Adaptive-content condition (`if:`): the page is shown only to visitors it is true for. */
  condition?: string;
  /** `title:` in front matter (the name of a reusable content, in `.gitbook/includes/`). */
  frontTitle?: string;
}

export interface PageFile extends PageFields {
  body: string;
  /** The text before the body (byte-order mark, front matter, title line, one blank line). */
  head: string;
  /** Why the front matter could not be read (its fields are then left out; the rest is read). */
  problem?: string;
}

const FENCE = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;
const TITLE = /^#[ \t]+(.+?)[ \t]*#*[ \t]*(?:\r?\n|$)/;

const LAYOUT_TOGGLES = [
  'title',
  'description',
  'tableOfContents',
  'outline',
  'pagination',
  'metadata',
] as const;

type Data = Record<string, unknown>;

/**
 * Reads a page file. Front matter that is not valid YAML is reported in `problem` (naming the
 * line) and its fields left out; the title and body are read all the same.
 */
export function parsePageFile(text: string): PageFile {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  let rest = text.slice(bom.length);
  const out: PageFile = { body: '', head: '' };
  const fence = FENCE.exec(rest);
  if (fence) {
    const data = frontMatterData(fence[1] ?? '');
    if (typeof data === 'string') out.problem = data;
    else Object.assign(out, fieldsOf(data));
    rest = rest.slice(fence[0].length);
  }
  // The title line, and the one blank line GitBook writes after it.
  const blank = /^(?:\r?\n)*/.exec(rest)![0];
  const title = TITLE.exec(rest.slice(blank.length));
  if (title) {
    out.title = unescapeTitle(title[1]!);
    rest = rest.slice(blank.length + title[0].length).replace(/^\r?\n/, '');
  }
  out.body = rest;
  out.head = text.slice(0, text.length - rest.length);
  return out;
}

/** The front matter's data, or what is wrong with it. */
function frontMatterData(yaml: string): Data | string {
  const doc = parseDocument(yaml, { uniqueKeys: false, prettyErrors: true });
  const error = doc.errors[0];
  if (error) {
    const line = error.linePos?.[0]?.line;
    const detail = error.message.split('\n')[0];
    return `front matter is not valid YAML${line ? ` (line ${line + 1})` : ''}: ${detail}`;
  }
  const data = doc.toJS({ maxAliasCount: 100 }) as unknown;
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Data) : {};
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
const number = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const object = (value: unknown): Data | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Data) : undefined;

function fieldsOf(data: Data): PageFields {
  const out: PageFields = {};
  const description = text(data.description);
  if (description) out.description = description.trim();
  const icon = text(data.icon);
  if (icon) out.icon = icon.trim();
  if (data.hidden === true) out.hidden = true;
  if (data.noIndex === true) out.noIndex = true;
  if (data.noRobotsIndex === true) out.noRobotsIndex = true;
  const layout = object(data.layout);
  if (layout) out.layout = layoutOf(layout);
  const cover = text(data.cover);
  if (cover) {
    out.cover = { src: cover.trim(), yPos: number(data.coverY) ?? 0 };
    const height = number(data.coverHeight);
    if (height !== undefined) out.cover.height = height;
    const dark = text(data.coverDark);
    if (dark) out.cover.srcDark = dark.trim();
  }
  const condition = text(data.if);
  if (condition) out.condition = condition.trim();
  const title = text(data.title);
  if (title) out.frontTitle = title.trim();
  return out;
}

function layoutOf(data: Data): PageLayout {
  const layout: PageLayout = { ...DEFAULT_LAYOUT };
  if (data.width === 'wide' || data.width === 'default') layout.width = data.width;
  for (const key of LAYOUT_TOGGLES) {
    const visible = object(data[key])?.visible;
    if (typeof visible === 'boolean') layout[key] = visible;
  }
  const cover = object(data.cover);
  if (typeof cover?.visible === 'boolean') layout.cover = cover.visible;
  if (cover?.size === 'hero' || cover?.size === 'full') layout.coverSize = cover.size;
  return layout;
}

/** `\[x\]` in a title line reads `[x]`: GitBook escapes markdown characters it writes there. */
function unescapeTitle(title: string): string {
  return title.replace(/\\([\\`*_{}[\]()#+\-.!<>|~])/g, '$1');
}

function escapeTitle(title: string): string {
  return title.replace(/([\\`*_[\]<>])/g, '\\$1').replace(/\n/g, ' ');
}

function sameFields(a: PageFields, b: PageFields): boolean {
  return canonical(a) === canonical(b);
}

function canonical(fields: PageFields): string {
  const layout = fields.layout && !sameLayout(fields.layout, DEFAULT_LAYOUT) ? fields.layout : undefined;
  return JSON.stringify([
    fields.title ?? null,
    fields.description ?? null,
    fields.icon ?? null,
    fields.hidden === true,
    fields.noIndex === true,
    fields.noRobotsIndex === true,
    layout ? LAYOUT_KEYS.map((k) => layout[k]) : null,
    fields.cover
      ? [fields.cover.src, fields.cover.srcDark ?? null, fields.cover.yPos, fields.cover.height ?? null]
      : null,
    fields.condition ?? null,
  ]);
}

const LAYOUT_KEYS = Object.keys(DEFAULT_LAYOUT) as Array<keyof PageLayout>;

function sameLayout(a: PageLayout, b: PageLayout): boolean {
  return LAYOUT_KEYS.every((k) => a[k] === b[k]);
}

/**
 * The file text of a page. With the head it was read from: that head, unchanged, while the
 * fields it gives are the page's; otherwise its front matter edited to the page's fields (keys
 * Quire does not know are kept) and the title line rewritten. Without one: front matter when a
 * field needs it, the title, the body.
 */
export function writePageFile(page: PageFields, body: string, head?: string): string {
  if (head !== undefined) {
    const previous = parsePageFile(head);
    // A head without a title line took the title from SUMMARY.md: it has none to compare.
    const wanted = previous.title === undefined ? { ...page, title: undefined } : page;
    // Read as the import reads it: a cover with no layout written shows.
    const read =
      previous.layout === undefined && previous.cover
        ? { ...previous, layout: { ...DEFAULT_LAYOUT, cover: true } }
        : previous;
    if (previous.body === '' && sameFields(read, wanted)) return head + body;
  }
  const bom = head?.startsWith('\uFEFF') ? '\uFEFF' : '';
  const source = head === undefined ? undefined : FENCE.exec(head.slice(bom.length))?.[1];
  const front = frontMatterText(page, source);
  const title = page.title ? `# ${escapeTitle(page.title)}\n\n` : '';
  return `${bom}${front ? `---\n${front}---\n\n` : ''}${title}${body}`;
}

/** The front matter (without fences) for `page`: `source` edited, or a new one; '' for none. */
function frontMatterText(page: PageFields, source: string | undefined): string {
  let doc: YamlDocument;
  try {
    doc = parseDocument(source ?? '', { uniqueKeys: false });
    if (doc.errors.length > 0 || (doc.contents !== null && !isMap(doc.contents))) doc = parseDocument('');
  } catch {
    doc = parseDocument('');
  }
  const old = source === undefined ? {} : fieldsOf(object(doc.toJS()) ?? {});
  const set = (key: string, value: unknown) => {
    if (value === undefined) doc.delete(key);
    else doc.set(key, value);
  };
  if (page.description !== old.description) set('description', page.description);
  if (page.icon !== old.icon) set('icon', page.icon);
  for (const key of ['hidden', 'noIndex', 'noRobotsIndex'] as const)
    if ((page[key] === true) !== (old[key] === true)) set(key, page[key] ? true : undefined);
  if (page.condition !== old.condition) set('if', page.condition);
  const cover = JSON.stringify(page.cover ?? null);
  if (cover !== JSON.stringify(old.cover ?? null)) {
    set('cover', page.cover?.src);
    set('coverDark', page.cover?.srcDark);
    set('coverY', page.cover?.yPos);
    set('coverHeight', page.cover?.height);
  }
  const layout = page.layout && !sameLayout(page.layout, DEFAULT_LAYOUT) ? page.layout : undefined;
  const oldLayout = old.layout && !sameLayout(old.layout, DEFAULT_LAYOUT) ? old.layout : undefined;
  if (JSON.stringify(layout ?? null) !== JSON.stringify(oldLayout ?? null)) {
    const next = page.layout ?? DEFAULT_LAYOUT;
    if (!layout && !doc.has('layout')) {
      // nothing to write
    } else {
      doc.setIn(['layout', 'width'], next.width);
      doc.setIn(['layout', 'cover', 'visible'], next.cover);
      doc.setIn(['layout', 'cover', 'size'], next.coverSize);
      for (const key of LAYOUT_TOGGLES) doc.setIn(['layout', key, 'visible'], next[key]);
    }
  }
  if (doc.contents === null || (isMap(doc.contents) && doc.contents.items.length === 0)) return '';
  return doc.toString({ lineWidth: 0 });
}
