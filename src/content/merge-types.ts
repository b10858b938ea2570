import type { PageIndexes } from './page-indexes.js';
import type { RevisionContent } from './tree.js';

/** What a three-way merge (merge.ts) takes, and the conflicts it finds; shared by its parts. */

export interface MergeInput {
  /** The common ancestor. */
  base: RevisionContent;
  /** The target: main, or the change request being updated. */
  ours: RevisionContent;
  /** The incoming side. */
  theirs: RevisionContent;
  /** Reads a page body (markdown text) by its hash. */
  loadBody(hash: string): Promise<string>;
  /**
   * The ids each side may have changed relative to `base` (a superset is fine), when the caller
   * knows them from the stored trees; without them every page and file is compared.
   */
  edited?: { ours: EditedIds; theirs: EditedIds };
  /**
   * The indexes of `ours`, when the caller has them: the search for pages given the same path
   * then starts from the pages the merge changed instead of computing every page's path.
   */
  oursIndexes?: PageIndexes;
}

export interface EditedIds {
  pages: ReadonlySet<string>;
  files: ReadonlySet<string>;
}

export type MergeConflict =
  /** Both sides changed overlapping lines of the body. */
  | { kind: 'body'; page: string; path: string; message: string }
  /**
   * Both sides changed a page field to different values. Variables use this too, with `page`
   * and `path` empty and `field` `variables.<name>`.
   */
  | { kind: 'field'; page: string; path: string; field: string; message: string }
  /** Deleted on one side, edited on the other. */
  | { kind: 'delete-edit'; page: string; path: string; message: string }
  /** The merged tree is unsound: a parent gone, a cycle, a group not at the top, a path twice. */
  | { kind: 'structure'; page: string; path: string; message: string }
  | { kind: 'file'; file: string; message: string }
  | { kind: 'reusable-content'; reusableContent: string; message: string };
