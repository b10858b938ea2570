import { type PageFile, parsePageFile } from './front-matter.js';
import type { RepoFile } from './repo-to-content.js';

/**
 * Page files remembered by git blob id, as text and as read (`parsePageFile`): the same blob
 * reads the same, so a re-sync neither reads from git nor parses the pages that did not change
 * (for 300 pages: 10–20 ms of parsing, and their share of the `git cat-file`). The least
 * recently used are forgotten beyond `maxChars` of text. Each read answers a copy, so no caller
 * shares objects with another.
 */
export class PageFileMemo {
  private readonly known = new Map<string, { text: string; page: PageFile }>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  /** The text of a page file read before, by blob id. */
  text(oid: string): string | undefined {
    return this.touch(oid)?.text;
  }

  read(file: RepoFile): PageFile {
    const known = this.touch(file.oid);
    if (known) return structuredClone(known.page);
    const text = file.data.toString('utf8');
    const page = parsePageFile(text);
    const size = sizeOf(text);
    if (size <= this.maxChars / 64) {
      this.known.set(file.oid, { text, page: structuredClone(page) });
      this.chars += size;
      for (const [oid, old] of this.known) {
        if (this.chars <= this.maxChars) break;
        this.known.delete(oid);
        this.chars -= sizeOf(old.text);
      }
    }
    return page;
  }

  private touch(oid: string): { text: string; page: PageFile } | undefined {
    const known = this.known.get(oid);
    if (known) {
      this.known.delete(oid);
      this.known.set(oid, known);
    }
    return known;
  }
}

/** The text, and its body and head (as long again, when not sharing the text's memory). */
function sizeOf(text: string): number {
  return 2 * text.length + 512;
}
