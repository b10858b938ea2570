import { DEFAULT_LAYOUT, type PageLayout } from '../content/tree.js';
import { parseYaml, writeYaml, YamlError, type YamlMap } from './yaml-lite.js';

/**
 * Page files in GitBook's git format: optional front matter (description, icon, hidden,
 * layout), then `# Title`, then the body. The body is kept byte for byte; only the front
 * matter and the title line are read into page fields.
 */

export interface PageFile {
  title?: string;
  description?: string;
  icon?: string;
  hidden?: boolean;
  noIndex?: boolean;
  layout?: PageLayout;
  body: string;
}

export class FrontMatterError extends Error {}

const FENCE = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const TITLE = /^#[ \t]+(.+?)[ \t]*#*[ \t]*(?:\r?\n|$)/;

const LAYOUT_TOGGLES = ['title', 'description', 'tableOfContents', 'outline', 'pagination'] as const;

export function parsePageFile(text: string): PageFile {
  let rest = text.replace(/^\uFEFF/, '');
  const out: PageFile = { body: '' };
  const fence = FENCE.exec(rest);
  if (fence) {
    let data: YamlMap;
    try {
      data = parseYaml(fence[1]!);
    } catch (error) {
      const detail = error instanceof YamlError ? error.message : String(error);
      throw new FrontMatterError(`front matter is not valid: ${detail}`);
    }
    rest = rest.slice(fence[0].length);
    if (typeof data.description === 'string' && data.description.trim() !== '')
      out.description = data.description.trim();
    if (typeof data.icon === 'string' && data.icon !== '') out.icon = data.icon;
    if (data.hidden === true) out.hidden = true;
    if (data.noIndex === true) out.noIndex = true;
    if (data.layout && typeof data.layout === 'object') out.layout = layoutOf(data.layout);
  }
  // The title line, and the one blank line GitBook writes after it.
  const blank = /^(?:\r?\n)*/.exec(rest)![0];
  const title = TITLE.exec(rest.slice(blank.length));
  if (title) {
    out.title = title[1]!;
    rest = rest.slice(blank.length + title[0].length).replace(/^\r?\n/, '');
  }
  out.body = rest;
  return out;
}

function layoutOf(data: YamlMap): PageLayout {
  const layout: PageLayout = { ...DEFAULT_LAYOUT };
  if (data.width === 'wide' || data.width === 'default') layout.width = data.width;
  for (const key of LAYOUT_TOGGLES) {
    const toggle = data[key];
    if (toggle && typeof toggle === 'object' && typeof toggle.visible === 'boolean')
      layout[key] = toggle.visible;
  }
  const cover = data.cover;
  if (cover && typeof cover === 'object' && typeof cover.visible === 'boolean') layout.cover = cover.visible;
  if (cover && typeof cover === 'object' && (cover.size === 'hero' || cover.size === 'full'))
    layout.coverSize = cover.size;
  return layout;
}

function sameLayout(a: PageLayout, b: PageLayout): boolean {
  return (Object.keys(a) as Array<keyof PageLayout>).every((k) => a[k] === b[k]);
}

/** The file text of a page: front matter when any field needs it, the title, the body. */
export function writePageFile(page: Omit<PageFile, 'body'>, body: string): string {
  const data: YamlMap = {};
  if (page.description) data.description = page.description;
  if (page.icon) data.icon = page.icon;
  if (page.hidden) data.hidden = true;
  if (page.noIndex) data.noIndex = true;
  if (page.layout && !sameLayout(page.layout, DEFAULT_LAYOUT)) {
    const layout: YamlMap = {};
    if (page.layout.width !== 'default') layout.width = page.layout.width;
    if (page.layout.cover) layout.cover = { visible: true, size: page.layout.coverSize };
    for (const key of LAYOUT_TOGGLES) layout[key] = { visible: page.layout[key] };
    data.layout = layout;
  }
  const front = Object.keys(data).length > 0 ? `---\n${writeYaml(data)}---\n\n` : '';
  const title = page.title ? `# ${page.title}\n\n` : '';
  return `${front}${title}${body}`;
}
