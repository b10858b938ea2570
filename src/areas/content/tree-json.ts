import { type ContentContext, presentPages } from './present.js';
import type { OpenContent } from './service.js';

/**
 * The JSON text of revisions' whole page trees (`listPages`, and the `pages` of a revision),
 * kept by revision within a budget of bytes, least recently used first out. A revision never
 * changes, and its tree does not depend on who reads it (access is checked before), only on
 * `metadata`. Presenting and serializing the tree of a 100,000-page space takes about 2 s for
 * 56 MiB; a repeated read sends the kept text.
 */
export class PageTreeJson {
  private readonly kept = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly budget: number) {}

  /** Bytes of text kept now (never over the budget). */
  get keptBytes(): number {
    return this.bytes;
  }

  of(content: OpenContent, ctx: ContentContext): string {
    // The space too: the app URLs of its pages name it.
    const key = `${ctx.spaceId}\0${content.revision.id}\0${ctx.metadata}`;
    let json = this.kept.get(key);
    if (json !== undefined) {
      this.kept.delete(key);
      this.kept.set(key, json);
      return json;
    }
    json = JSON.stringify(presentPages(content.snapshot.content, ctx));
    // Text of one-byte characters (JSON of ASCII ids and titles mostly): length is about its size.
    if (json.length <= this.budget / 2) {
      this.kept.set(key, json);
      this.bytes += json.length;
      for (const [oldest, text] of this.kept) {
        if (this.bytes <= this.budget) break;
        this.kept.delete(oldest);
        this.bytes -= text.length;
      }
    }
    return json;
  }
}

/** The text of a JSON object with one more member, first, whose value is JSON text already. */
export function withMember(objectJson: string, name: string, valueJson: string): string {
  const rest = objectJson.slice(1);
  return `{${JSON.stringify(name)}:${valueJson}${rest === '}' ? '' : ','}${rest}`;
}
