import { type ContentContext, presentPages } from './present.js';
import type { OpenContent } from './service.js';

/**
 * The JSON of revisions' whole page trees, `{"pages":[...]}` (the `listPages` answer, and the
 * start of a revision's), kept encoded by revision within a budget of bytes, least recently used first out. A revision never
 * changes, and its tree does not depend on who reads it (access is checked before), only on
 * `metadata`. Presenting and serializing the tree of a 100,000-page space takes about 2 s for
 * 56 MiB; a repeated read sends the kept bytes. Bytes rather than text: sending 56 MiB of text
 * flattens it, measures its UTF-8 length and encodes it again on every read.
 */
export class PageTreeJson {
  private readonly kept = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly budget: number) {}

  /** Bytes kept now (never over the budget). */
  get keptBytes(): number {
    return this.bytes;
  }

  of(content: OpenContent, ctx: ContentContext): Buffer {
    // The space too: the app URLs of its pages name it.
    const key = `${ctx.spaceId}\0${content.revision.id}\0${ctx.metadata}`;
    let json = this.kept.get(key);
    if (json !== undefined) {
      this.kept.delete(key);
      this.kept.set(key, json);
      return json;
    }
    json = Buffer.from(JSON.stringify({ pages: presentPages(content.snapshot.content, ctx) }));
    if (json.length <= this.budget / 2) {
      this.kept.set(key, json);
      this.bytes += json.length;
      for (const [oldest, bytes] of this.kept) {
        if (this.bytes <= this.budget) break;
        this.kept.delete(oldest);
        this.bytes -= bytes.length;
      }
    }
    return json;
  }
}

/** The encoded JSON of two objects' members together: `first`'s (encoded), then `restJson`'s. */
export function joinObjects(first: Buffer, restJson: string): Buffer {
  const rest = restJson.slice(1);
  if (rest === '}') return first;
  return Buffer.concat([first.subarray(0, first.length - 1), Buffer.from(`,${rest}`)]);
}
