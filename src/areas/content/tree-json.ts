import { derivationOf } from '../../content/page-indexes.js';
import type { PageNode, RevisionContent } from '../../content/tree.js';
import { type ContentContext, holdsPages, presentPageItself } from './present.js';
import type { OpenContent } from './service.js';

/** Encoded JSON as parts to copy one after the other, and their length. */
type Rope = Buffer | { parts: Rope[]; length: number };

/**
 * Encoded JSON as the buffers to send one after the other. A large tree is not copied into one
 * buffer: its parts are those kept for the next revisions, and copying 56 MiB into a new buffer
 * for each revision, and collecting them, slowed the answer that sent it (bench/scale).
 */
export interface EncodedJson {
  parts: Buffer[];
  length: number;
}

/** Trees of fewer bytes are sent as one buffer. */
const ONE_BUFFER_UNDER = 2 ** 20;

/** The encoded subtree of a page with pages below it, kept for the next revisions. */
interface Subtree {
  /** The page's path when encoded: its pages' paths (and URLs) follow from it. */
  path: string;
  /** Pages in the subtree, the page itself included. */
  count: number;
  /** One buffer for a small subtree, parts for a larger one (its own JSON around its pages'). */
  rope: Rope;
}

/** Subtrees of at most this many pages are encoded as one buffer, never as parts. */
const SMALL_SUBTREE = 256;
const EMPTY_PAGES = '"pages":[]';
const HEAD = Buffer.from('{"pages":[');
const TAIL = Buffer.from(']}');
const COMMA = Buffer.from(',');

/**
 * The JSON of revisions' whole page trees, `{"pages":[...]}` (the `listPages` answer, and the
 * start of a revision's).
 *
 * A tree is put together from the encoded subtrees of the revision it was made from (a write, a
 * merge), with only the subtrees holding a changed page encoded again: every page above a
 * changed one, and the pages below a page whose path changed. Presenting and serializing the
 * whole tree of a 100,000-page space took 456 ms after every merge (bench/scale). Small subtrees
 * are kept as one buffer, larger ones as their parts, so no byte is kept twice.
 *
 * Whole trees are also kept encoded by revision within a budget of bytes, least recently used
 * first out, for repeated reads. A revision never changes, and its tree does not depend on who
 * reads it (access is checked before), only on `metadata`. Bytes rather than text: sending
 * 56 MiB of text flattens it, measures its UTF-8 length and encodes it again on every read.
 */
export class PageTreeJson {
  private readonly kept = new Map<string, EncodedJson>();
  private bytes = 0;
  /** Encoded subtrees by revision content, then by space and metadata flag; held weakly. */
  private readonly subtrees = new WeakMap<RevisionContent, Map<string, Map<string, Subtree>>>();

  private readonly smallSubtree: number;
  private readonly oneBufferUnder: number;

  constructor(
    private readonly budget: number,
    /** Tests make them small, to see the parts of large trees in small ones. */
    sizes: { smallSubtree?: number; oneBufferUnder?: number } = {},
  ) {
    this.smallSubtree = sizes.smallSubtree ?? SMALL_SUBTREE;
    this.oneBufferUnder = sizes.oneBufferUnder ?? ONE_BUFFER_UNDER;
  }

  /** Bytes kept now (never over the budget). */
  get keptBytes(): number {
    return this.bytes;
  }

  of(content: OpenContent, ctx: ContentContext): EncodedJson {
    // The space too: the app URLs of its pages name it.
    const key = `${ctx.spaceId}\0${content.revision.id}\0${ctx.metadata}`;
    let json = this.kept.get(key);
    if (json !== undefined) {
      this.kept.delete(key);
      this.kept.set(key, json);
      return json;
    }
    json = this.encode(content.snapshot.content, ctx);
    if (json.length <= this.budget / 2) {
      this.kept.set(key, json);
      this.bytes += json.length;
      for (const [oldest, kept] of this.kept) {
        if (this.bytes <= this.budget) break;
        this.kept.delete(oldest);
        this.bytes -= kept.length;
      }
    }
    return json;
  }

  private encode(content: RevisionContent, ctx: ContentContext): EncodedJson {
    const known = this.subtreesOf(content, `${ctx.spaceId}\0${ctx.metadata}`);
    const top = new Encoding(ctx, known, this.smallSubtree).pagesUnder(null);
    const rope = { parts: [HEAD, ...top.parts, TAIL], length: HEAD.length + top.length + TAIL.length };
    if (rope.length < this.oneBufferUnder) return { parts: [flatten(rope)], length: rope.length };
    const parts: Buffer[] = [];
    leavesOf(rope, parts);
    return { parts, length: rope.length };
  }

  /**
   * The subtrees kept for a content: those of the content it was made from, less every one
   * holding a changed page (in either tree: a page moved or removed leaves its old parents too).
   */
  private subtreesOf(content: RevisionContent, key: string): Map<string, Subtree> {
    let byKey = this.subtrees.get(content);
    if (!byKey) {
      byKey = new Map();
      this.subtrees.set(content, byKey);
    }
    let known = byKey.get(key);
    if (known) return known;
    const made = derivationOf(content);
    const base = made && this.subtrees.get(made.base)?.get(key);
    known = new Map(base);
    if (made && base)
      for (const id of made.derivation.pages) {
        forgetAbove(known, id, made.base.pages);
        forgetAbove(known, id, content.pages);
      }
    byKey.set(key, known);
    return known;
  }
}

/** Drops the kept subtrees of a page and of every page above it. */
function forgetAbove(known: Map<string, Subtree>, id: string, pages: ReadonlyMap<string, PageNode>): void {
  let at: string | null | undefined = id;
  // Bounded: a broken parent chain must not loop.
  for (let steps = 0; at != null && steps <= pages.size; steps++) {
    known.delete(at);
    at = pages.get(at)?.parent;
  }
}

/** One tree being encoded, from the subtrees kept for it (which it updates). */
class Encoding {
  constructor(
    private readonly ctx: ContentContext,
    private readonly known: Map<string, Subtree>,
    private readonly smallSubtree: number,
  ) {}

  /**
   * The encoded pages under a parent, with commas between them, and how many pages they hold.
   * Pages without pages below are encoded together, one buffer for each run of them.
   */
  pagesUnder(parent: string | null): { parts: Rope[]; length: number; count: number } {
    const items: Rope[] = [];
    let run: string[] = [];
    let count = 0;
    const endRun = () => {
      if (run.length > 0) items.push(Buffer.from(run.join(',')));
      run = [];
    };
    for (const page of this.ctx.index.childrenOf(parent)) {
      if (!holdsPages(page) || this.ctx.index.childrenOf(page.id).length === 0) {
        const presented = presentPageItself(page, this.ctx);
        if (presented) {
          run.push(JSON.stringify(presented));
          count++;
        }
        continue;
      }
      endRun();
      const subtree = this.subtree(page);
      items.push(subtree.rope);
      count += subtree.count;
    }
    endRun();
    const parts: Rope[] = [];
    let length = 0;
    for (const item of items) {
      if (parts.length > 0) {
        parts.push(COMMA);
        length++;
      }
      parts.push(item);
      length += item.length;
    }
    return { parts, length, count };
  }

  /** A page with pages below it: kept while nothing in it changed, else encoded. */
  private subtree(page: PageNode): Subtree {
    const path = this.ctx.index.pathOf(page.id);
    const kept = this.known.get(page.id);
    if (kept && kept.path === path) return kept;
    const below = this.pagesUnder(page.id);
    const text = JSON.stringify(presentPageItself(page, this.ctx));
    // Every member before `pages` is a string or a flat object of strings: the first
    // `"pages":[]` is the member itself (a quote inside a string is escaped).
    const cut = text.indexOf(EMPTY_PAGES) + EMPTY_PAGES.length - 1;
    const open = Buffer.from(text.slice(0, cut));
    const close = Buffer.from(text.slice(cut));
    const parts = [open, ...below.parts, close];
    const length = open.length + below.length + close.length;
    const count = 1 + below.count;
    let rope: Rope;
    if (count <= this.smallSubtree) {
      rope = flatten({ parts, length });
      // Now inside this one: the next change below re-encodes it whole (it is small).
      for (const child of this.ctx.index.childrenOf(page.id)) this.known.delete(child.id);
    } else rope = { parts, length };
    const subtree: Subtree = { path, count, rope };
    this.known.set(page.id, subtree);
    return subtree;
  }
}

/** The rope's bytes in one buffer. */
function flatten(rope: Rope): Buffer {
  if (Buffer.isBuffer(rope)) return rope;
  const out = Buffer.allocUnsafe(rope.length);
  const at = copyInto(rope, out, 0);
  if (at !== rope.length) throw new Error(`page tree JSON: wrote ${at} bytes of ${rope.length}`);
  return out;
}

function leavesOf(rope: Rope, out: Buffer[]): void {
  if (Buffer.isBuffer(rope)) out.push(rope);
  else for (const part of rope.parts) leavesOf(part, out);
}

function copyInto(rope: Rope, out: Buffer, at: number): number {
  if (Buffer.isBuffer(rope)) return at + rope.copy(out, at);
  for (const part of rope.parts) at = copyInto(part, out, at);
  return at;
}

/**
 * The encoded JSON of two objects' members together, `first`'s (encoded) then `restJson`'s: the
 * parts to send one after the other, without copying a large tree to add a few members.
 */
export function joinObjects(first: EncodedJson, restJson: string): EncodedJson {
  const rest = restJson.slice(1);
  if (rest === '}') return first;
  // The same answer again (a revision read again) is the same object: its gzip body is kept by it.
  const last = joined.get(first);
  if (last?.rest === rest) return last.json;
  const more = Buffer.from(`,${rest}`);
  const json = {
    parts: [...first.parts.slice(0, -1), withoutLastByte(first.parts.at(-1)!), more],
    length: first.length - 1 + more.length,
  };
  joined.set(first, { rest, json });
  return json;
}

/** The last join of each first object, held while it is. */
const joined = new WeakMap<EncodedJson, { rest: string; json: EncodedJson }>();

const shortened = new WeakMap<Buffer, Buffer>();

/**
 * The same view for the same buffer each time: a small tree is one buffer, and its compressed
 * blocks are kept by buffer (GzipParts).
 */
function withoutLastByte(buffer: Buffer): Buffer {
  let view = shortened.get(buffer);
  if (!view) {
    view = buffer.subarray(0, buffer.length - 1);
    shortened.set(buffer, view);
  }
  return view;
}
