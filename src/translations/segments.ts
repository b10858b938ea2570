import type { JsonDocument } from '../content/document-schema.js';
import {
  type AnyBlock,
  codeBlock,
  type Inline,
  type InlineNode,
} from '../content/markdown/document-types.js';
import { documentToMarkdown, markdownToDocument, RAW_SYNTAX } from '../content/markdown/index.js';
import { decodeInlines, encodeInlines, escapeText, parseTagged, placeholderProblem } from './placeholders.js';

/**
 * Pages cut into translatable units and put back together. A segment is the inline content of
 * one block that holds text (marks and inline nodes as `<x>` placeholder tags, see
 * `placeholders.ts`), or one text attribute a reader sees (tab title, image alt text, column
 * title). Everything else (keys, types, data, code, URLs, expressions) never leaves the
 * document, so a translation can change words and nothing else.
 */

export { placeholderProblem } from './placeholders.js';
export { countWords } from './words.js';

/** One translatable unit; `path` locates it in the document (`nodes.3.fragments.0.nodes.0`). */
export interface Segment {
  path: string;
  text: string;
}

/** A translation that cannot replace its segment: the caller keeps the page's previous translation. */
export class SegmentMismatch extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(path ? `segment ${path}: ${problem}` : problem);
    this.name = 'SegmentMismatch';
  }
}

interface Unit extends Segment {
  /** Longest text the schema allows there. */
  limit?: number;
  apply(translated: string): void;
  /**
   * For a segment inside raw markdown (a construct the schema cannot nest there, kept as its
   * source text): what writes that text again once its segments are translated, innermost first.
   */
  rewrite?: Rewrite[];
}

interface Rewrite {
  depth: number;
  run(): void;
}

/**
 * Blocks whose content is not prose: code (raw markdown included, which is a code block),
 * formulas, API references, integrations and references to content translated elsewhere.
 */
const SKIPPED: ReadonlySet<string> = new Set([
  'code',
  'code-line',
  'math',
  'openapi-operation',
  'openapi-schemas',
  'openapi-webhook',
  'swagger',
  'integration',
  'reusable-content',
  'content-ref',
  'prompt',
  'raw',
]);

const LETTER = /\p{L}/u;

/** The segments of a document, in document order. */
export function segmentsOf(document: JsonDocument): Segment[] {
  return collect(document).map(({ path, text }) => ({ path, text }));
}

/**
 * The document with each segment's text replaced by its translation (same order as
 * `segmentsOf`). A translation equal to its source leaves the nodes as they were.
 */
export function applyTranslations(document: JsonDocument, translated: readonly string[]): JsonDocument {
  const copy = structuredClone(document);
  const units = collect(copy);
  if (units.length !== translated.length)
    throw new SegmentMismatch('', `${translated.length} translations for ${units.length} segments`);
  // Every segment is checked before any is applied: a page is translated whole or not at all.
  units.forEach((unit, i) => {
    const text = translated[i]!;
    if (text === unit.text) return;
    const problem = placeholderProblem(unit.text, text) ?? lengthProblem(unit, text);
    if (problem) throw new SegmentMismatch(unit.path, problem);
  });
  const rewrites = new Set<Rewrite>();
  units.forEach((unit, i) => {
    if (translated[i] === unit.text) return;
    unit.apply(translated[i]!);
    for (const rewrite of unit.rewrite ?? []) rewrites.add(rewrite);
  });
  // Raw markdown inside raw markdown is written before the text that holds it.
  for (const rewrite of [...rewrites].sort((a, b) => b.depth - a.depth)) rewrite.run();
  return copy;
}

function lengthProblem(unit: Unit, translated: string): string | undefined {
  if (unit.limit === undefined) return undefined;
  return plain(translated).length > unit.limit ? `longer than ${unit.limit} characters` : undefined;
}

function collect(document: JsonDocument): Unit[] {
  const units: Unit[] = [];
  walkBlocks(document.nodes, 'nodes', units);
  return units;
}

function walkBlocks(blocks: readonly AnyBlock[], path: string, units: Unit[], depth = 0): void {
  for (const [i, block] of blocks.entries()) walkBlock(block, `${path}.${i}`, units, depth);
}

/**
 * Generic on purpose: any block that holds inline nodes is a segment and any other is walked
 * into (nodes and fragments), so block kinds added to the schema later are translated too.
 */
function walkBlock(block: AnyBlock, path: string, units: Unit[], depth = 0): void {
  if (block.type === 'code' && (block.data as { syntax?: string }).syntax === RAW_SYNTAX) {
    rawSegments(block as unknown as RawBlock, path, units, depth);
    return;
  }
  if (SKIPPED.has(block.type)) return;
  attributes(block, path, units);
  const nodes: readonly unknown[] = 'nodes' in block && Array.isArray(block.nodes) ? block.nodes : [];
  if (nodes.some(isInlineNode)) inlineSegment(block as unknown as { nodes: InlineNode[] }, path, units);
  else walkBlocks(nodes as AnyBlock[], `${path}.nodes`, units, depth);
  if ('fragments' in block && Array.isArray(block.fragments))
    for (const [j, fragment] of block.fragments.entries())
      walkBlocks(fragment.nodes as AnyBlock[], `${path}.fragments.${j}.nodes`, units, depth);
}

interface RawBlock {
  data: { syntax?: string };
  nodes: Array<{ nodes?: Array<{ leaves?: Array<{ text: string }> }> }>;
}

/**
 * Raw markdown: what the schema cannot hold where it stands (tabs in a hint, columns in a list)
 * is kept as its source text. That text is read as a document of its own in the profile that
 * nests anything, its segments join the page's, and it is written back as markdown once they
 * are translated. Only text that this reading gives back exactly is taken: what it would change
 * (legacy API blocks, integration embeds) stays as written.
 */
function rawSegments(block: RawBlock, path: string, units: Unit[], depth: number): void {
  const source = block.nodes
    .map((line) =>
      (line.nodes ?? [])
        .flatMap((t) => t.leaves ?? [])
        .map((l) => l.text)
        .join(''),
    )
    .join('\n');
  const trimmed = (text: string) => text.replace(/\n+$/, '');
  let inner: JsonDocument;
  try {
    inner = markdownToDocument(source, { profile: 'render' });
    if (trimmed(documentToMarkdown(inner)) !== trimmed(source)) return;
  } catch {
    // A reading the writer cannot write back: kept as written, like any other it would change.
    return;
  }
  const found: Unit[] = [];
  for (const [i, child] of inner.nodes.entries())
    walkBlock(child as AnyBlock, `${path}.raw.${i}`, found, depth + 1);
  const rewrite: Rewrite = {
    depth,
    run: () => {
      block.nodes = codeBlock(trimmed(documentToMarkdown(inner)), RAW_SYNTAX).nodes as RawBlock['nodes'];
    },
  };
  for (const unit of found) units.push({ ...unit, rewrite: [...(unit.rewrite ?? []), rewrite] });
}

function isInlineNode(node: unknown): boolean {
  const object = (node as { object?: unknown }).object;
  return object === 'text' || object === 'inline';
}

function inlineSegment(block: { nodes: InlineNode[] }, path: string, units: Unit[]): void {
  const encoded = encodeInlines(block.nodes);
  if (encoded.hasLetters)
    units.push({
      path,
      text: encoded.text,
      apply: (translated) => {
        block.nodes = decodeInlines(translated, encoded.holders, block.nodes);
      },
    });
  // Decoding reuses the inline nodes themselves, so what is found inside them here is still
  // part of the document after their block's text has been replaced.
  inlineParts(block.nodes, `${path}.nodes`, units);
}

function inlineParts(nodes: readonly InlineNode[], path: string, units: Unit[]): void {
  nodes.forEach((node, k) => {
    const at = `${path}.${k}`;
    if (node.object === 'text') return;
    inlineAttributes(node, at, units);
    if (node.type === 'link') inlineParts(node.nodes, `${at}.nodes`, units);
    if (node.type === 'annotation')
      for (const [j, fragment] of node.fragments.entries())
        walkBlocks(fragment.nodes as AnyBlock[], `${at}.fragments.${j}.nodes`, units);
  });
}

/** Text kept in block data that readers see. Tag attributes other than these stay as written. */
function attributes(block: AnyBlock, path: string, units: Unit[]): void {
  if (block.type === 'tabs-item' && block.data.title !== undefined)
    attribute(units, `${path}.data.title`, block.data.title, (value) => {
      block.data.title = value;
    });
  else if (block.type === 'image' && block.data.alt !== undefined)
    attribute(units, `${path}.data.alt`, block.data.alt, (value) => {
      block.data.alt = value;
    });
  else if (block.type === 'table') {
    const { definition, view } = block.data;
    const ids = [...new Set([...view.columns, ...Object.keys(definition)])];
    for (const id of ids) {
      const column = definition[id];
      if (column)
        attribute(units, `${path}.data.definition.${id}.title`, column.title, (value) => {
          column.title = value;
        });
    }
  }
}

function inlineAttributes(node: Inline, path: string, units: Unit[]): void {
  if (node.type === 'inline-image') {
    const data = node.data;
    if (data.alt !== undefined)
      attribute(units, `${path}.data.alt`, data.alt, (value) => {
        data.alt = value;
      });
    if (data.caption !== undefined)
      attribute(units, `${path}.data.caption`, data.caption, (value) => {
        data.caption = value;
      });
  } else if (node.type === 'button') {
    const data = node.data;
    attribute(
      units,
      `${path}.data.label`,
      data.label,
      (value) => {
        data.label = value;
      },
      256,
    );
  }
}

function attribute(
  units: Unit[],
  path: string,
  value: string,
  set: (value: string) => void,
  limit?: number,
): void {
  if (typeof value !== 'string' || !LETTER.test(value)) return;
  const unit: Unit = { path, text: escapeText(value), apply: (translated) => set(plain(translated)) };
  if (limit !== undefined) unit.limit = limit;
  units.push(unit);
}

/** The text of a string without placeholders (attributes have none once checked). */
function plain(tagged: string): string {
  return parseTagged(tagged)
    .tree.map((node) => (node.type === 'text' ? node.value : ''))
    .join('');
}
