import type { JsonDocument } from '../../content/document-schema.js';
import type { LinkResolver } from '../../content/markdown/links.js';
import { Lru } from '../../lru.js';
import { answersAgain, type Converted, convertRecording } from './conversion.js';
import type { StoredDocuments, StoredKey } from './stored-documents.js';

interface Kept extends Converted {
  /** The tree it was last known good for. */
  tree: string;
  /** What it counts against the bound: its markdown's length. */
  weight: number;
}

/** A document asked of the cache. */
export interface DocumentRequest {
  /** Its markdown's hash, the page, the profile. */
  key: string;
  /** The tree read, whose links `links` resolves. */
  tree: string;
  links: LinkResolver;
  markdown: () => Promise<string>;
  convert: (markdown: string, links: LinkResolver) => JsonDocument;
  /** Where a page's document is kept in the database (stored-documents.ts). */
  stored?: StoredKey | undefined;
}

/**
 * Converted documents, kept across revisions. A page's document depends on its markdown and on
 * what its links resolve to in the tree, so it was kept per tree; but every write or merge makes a
 * new tree, and then every page of the space was converted again (in each process), though a
 * merge changes few pages and the links of fewer. A document is kept under its markdown's hash
 * instead, with the questions its conversion asked of the links and their answers: in another tree
 * the questions are asked again, and when every answer is the same the document is the same.
 * Asking a link again costs a lookup; converting costs parsing the markdown.
 *
 * Beneath the process's own, a page's documents are kept in the database the same way
 * (stored-documents.ts), for every process and after a restart.
 */
export class DocumentCache {
  private readonly kept: Lru<string, Kept>;

  /**
   * At most `entries` documents, converted from `markdownBytes` of markdown in all: a document
   * takes about eight times its markdown in memory (4.8 KB for the bench's 0.6 KB pages).
   */
  constructor(
    entries: number,
    markdownBytes: number,
    private readonly stored?: StoredDocuments,
  ) {
    this.kept = new Lru(entries, { weigh: (kept) => kept.weight, maxWeight: markdownBytes });
  }

  /**
   * The document asked for: the process's while its links answer the same, else the database's
   * on the same terms, else `convert`ed anew from its markdown.
   */
  async get(request: DocumentRequest): Promise<JsonDocument> {
    const { key, tree, links } = request;
    const kept = this.kept.get(key);
    if (kept && (kept.tree === tree || answersAgain(kept.asked, links))) {
      kept.tree = tree;
      return kept.document;
    }
    const stored = request.stored;
    const loaded = stored && (await this.stored?.load(stored));
    if (loaded && answersAgain(loaded.asked, links)) {
      this.kept.set(key, { document: loaded.document, asked: loaded.asked, tree, weight: loaded.weight });
      return loaded.document;
    }
    const markdown = await request.markdown();
    const converted = convertRecording(markdown, links, request.convert);
    this.kept.set(key, { ...converted, tree, weight: 1 + markdown.length });
    return converted.document;
  }
}
