import type { JsonDocument } from '../../content/document-schema.js';
import type { LinkResolver } from '../../content/markdown/links.js';
import { Lru } from '../../lru.js';

/** What converting a document asked of the tree's links, and what they answered. */
type Asked = ['resolve', string, string] | ['href', string, string];

interface Kept {
  document: JsonDocument;
  /** The tree it was last known good for. */
  tree: string;
  asked: Asked[];
  /** What it counts against the bound: its markdown's length. */
  weight: number;
}

/**
 * Converted documents, kept across revisions. A page's document depends on its markdown and on
 * what its links resolve to in the tree, so it was kept per tree; but every write or merge makes a
 * new tree, and then every page of the space was converted again (in each process), though a
 * merge changes few pages and the links of fewer. A document is kept under its markdown's hash
 * instead, with the questions its conversion asked of the links and their answers: in another tree
 * the questions are asked again, and when every answer is the same the document is the same.
 * Asking a link again costs a lookup; converting costs parsing the markdown.
 */
export class DocumentCache {
  private readonly kept: Lru<string, Kept>;

  /**
   * At most `entries` documents, converted from `markdownBytes` of markdown in all: a document
   * takes about eight times its markdown in memory (4.8 KB for the bench's 0.6 KB pages).
   */
  constructor(entries: number, markdownBytes: number) {
    this.kept = new Lru(entries, { weigh: (kept) => kept.weight, maxWeight: markdownBytes });
  }

  /**
   * The document under `key` (its markdown's hash, the page, the profile) for `tree`, whose links
   * `links` resolves: the kept one while its links answer the same, else `convert`ed anew from
   * `markdown`.
   */
  get(
    key: string,
    tree: string,
    links: LinkResolver,
    markdown: string,
    convert: (markdown: string, links: LinkResolver) => JsonDocument,
  ): JsonDocument {
    const kept = this.kept.get(key);
    if (kept && (kept.tree === tree || answersAgain(kept.asked, links))) {
      kept.tree = tree;
      return kept.document;
    }
    const asked: Asked[] = [];
    const recording: LinkResolver = {
      resolve: (href) => {
        const ref = links.resolve(href);
        asked.push(['resolve', href, JSON.stringify(ref)]);
        return ref;
      },
      href: (ref) => {
        const href = links.href(ref);
        asked.push(['href', JSON.stringify(ref), href]);
        return href;
      },
    };
    const document = convert(markdown, recording);
    this.kept.set(key, { document, tree, asked, weight: 1 + markdown.length });
    return document;
  }
}

function answersAgain(asked: Asked[], links: LinkResolver): boolean {
  return asked.every(([kind, question, answer]) =>
    kind === 'resolve'
      ? JSON.stringify(links.resolve(question)) === answer
      : links.href(JSON.parse(question)) === answer,
  );
}
