import { markdownToDocument } from '../content/markdown/index.js';
import { HeadingAnchors } from '../content/slugs.js';

/**
 * A page body cut into sections at its headings, so a search hit points at the part of the
 * page that matched. The first section is what comes before any heading (it has no anchor);
 * every heading starts a section whose anchor is the id the published page gives that
 * heading (`publish/render/render-context.ts`: the document's own id when well formed, else a
 * slug of its text, numbered when repeated), so `path#anchor` lands on it.
 */

export interface Section {
  /** The heading's id on the page; null for the text before the first heading. */
  anchor: string | null;
  heading: string;
  /** The section's words as a reader sees them, whitespace collapsed. */
  text: string;
}

/** Sections longer than this are indexed by their beginning. */
export const MAX_SECTION_TEXT = 100_000;

const HEADINGS = new Set(['heading-1', 'heading-2', 'heading-3']);

interface Node {
  object?: string;
  type?: string;
  text?: string;
  leaves?: Node[];
  nodes?: Node[];
  fragments?: Node[];
  data?: Record<string, unknown>;
}

/** A node's text; blocks below it are separated by line breaks so their words do not join. */
function textOf(node: Node | undefined): string {
  if (!node || typeof node !== 'object') return '';
  if (node.object === 'leaf') return typeof node.text === 'string' ? node.text : '';
  if (node.object === 'inline' && node.type === 'inline-math') return String(node.data?.formula ?? '');
  if (node.object === 'inline' && node.type === 'inline-image') return String(node.data?.alt ?? '');
  let out = '';
  for (const key of ['leaves', 'nodes', 'fragments'] as const) {
    const children = node[key];
    if (!Array.isArray(children)) continue;
    for (const child of children) {
      const text = textOf(child);
      out += child?.object === 'block' || child?.object === 'fragment' ? `${text}\n` : text;
    }
  }
  if (node.type === 'math') out += String(node.data?.formula ?? '');
  if (typeof node.data?.alt === 'string') out += ` ${node.data.alt}`;
  return out;
}

const CONTAINERS = new Set([
  'blockquote',
  'hint',
  'tabs',
  'tabs-item',
  'list-ordered',
  'list-unordered',
  'list-tasks',
  'list-item',
  'stepper',
  'stepper-step',
  'updates',
  'update',
  'columns',
  'column',
  'prompt',
]);

/**
 * What an API block (`openapi-operation`, `openapi-webhook`, `openapi-schemas`) says, read from
 * its specification: its words, and the title and anchor of the heading the page draws for it
 * (none: the words belong to the section they are in).
 */
export type ApiBlockText = (
  type: string,
  data: Record<string, unknown>,
) => { text: string; heading?: { title: string; preferredId: string } } | undefined;

const API_BLOCKS = new Set(['openapi-operation', 'openapi-webhook', 'openapi-schemas']);

export function splitSections(markdown: string, apiText?: ApiBlockText): Section[] {
  let document: { nodes?: Node[] };
  try {
    // What the site shows: text of markup it cannot read, never the markup.
    document = markdownToDocument(markdown, { profile: 'render' }) as unknown as { nodes?: Node[] };
  } catch {
    return [{ anchor: null, heading: '', text: clip(plainText(markdown)) }];
  }
  const sections: Array<{ anchor: string | null; heading: string; parts: string[] }> = [
    { anchor: null, heading: '', parts: [] },
  ];
  const anchors = new HeadingAnchors();
  const add = (text: string) => sections[sections.length - 1]!.parts.push(text);
  const visit = (blocks: Node[] | undefined, depth: number) => {
    for (const block of blocks ?? []) {
      if (block?.object !== 'block' || depth > 40) {
        add(textOf(block));
        continue;
      }
      // Conditional content is for some visitors only: a search answer must not reveal it.
      if (block.type === 'if') continue;
      if (HEADINGS.has(block.type ?? '')) {
        const title = textOf(block).replace(/\s+/g, ' ').trim();
        sections.push({ anchor: anchors.next(block.data?.id, title), heading: title, parts: [] });
      } else if (API_BLOCKS.has(block.type ?? '') && apiText) {
        const api = apiText(block.type!, block.data ?? {});
        if (api?.heading)
          sections.push({
            anchor: anchors.next(api.heading.preferredId, api.heading.title),
            heading: api.heading.title,
            parts: [],
          });
        if (api) add(api.text);
      } else if (block.type === 'expandable') {
        const [title, body] = block.fragments ?? [];
        add(textOf(title));
        visit(body?.nodes, depth + 1);
      } else if (CONTAINERS.has(block.type ?? '')) {
        if (typeof block.data?.title === 'string') add(block.data.title);
        visit(block.nodes, depth + 1);
      } else {
        add(textOf(block));
      }
    }
  };
  visit(document.nodes, 0);
  return sections.map((s) => ({ anchor: s.anchor, heading: s.heading, text: clip(s.parts.join('\n')) }));
}

function clip(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > MAX_SECTION_TEXT ? collapsed.slice(0, MAX_SECTION_TEXT) : collapsed;
}

/** Markdown to the words a reader sees, without parsing it: markup, block tags and link targets removed. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n/g, '')
    .replace(/\{%[^%]*%\}/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[#>*_`~|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
