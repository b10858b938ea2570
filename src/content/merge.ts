import { differingIds } from './merge-changes.js';
import { mergeVariables, mergeWhole } from './merge-nodes.js';
import { mergePages } from './merge-pages.js';
import { checkStructure } from './merge-structure.js';
import type { EditedIds, MergeConflict, MergeInput } from './merge-types.js';
import type { RevisionContent } from './tree.js';

export type { EditedIds, MergeConflict, MergeInput } from './merge-types.js';

/**
 * Three-way merge of revision contents by page and file id: merging a change request into main,
 * and updating a change request from main. Pure: the only outside call is `loadBody`, and only
 * for pages whose body both sides changed.
 */

export interface MergeResult {
  /** The merged content; meaningful only without conflicts. */
  content: RevisionContent;
  conflicts: MergeConflict[];
  /**
   * Bodies produced by merging text (their hash is not computed here): page id -> markdown. Such
   * a page's node in `content` still carries the target's `body` until the caller sets it.
   */
  mergedBodies: Map<string, string>;
  /** Ids of pages whose node differs from `ours`, deleted ones included, so only they are written. */
  changedPages: Set<string>;
  changedFiles: Set<string>;
  changedReusableContents: Set<string>;
}

export async function mergeContents(input: MergeInput): Promise<MergeResult> {
  const { base, ours, theirs } = input;
  if (theirs === base || theirs === ours) return unchanged(ours);
  if (ours === base) return takeTheirs(ours, theirs, input.edited?.theirs);

  const conflicts: MergeConflict[] = [];
  const pages = await mergePages(input, conflicts);
  const files = mergeWhole(
    base.files,
    ours.files,
    theirs.files,
    (file, problem) => {
      const name = (ours.files.get(file) ?? theirs.files.get(file) ?? base.files.get(file))?.name ?? file;
      conflicts.push({ kind: 'file', file, message: `the file ${name} ${problem}` });
    },
    input.edited && { ours: input.edited.ours.files, theirs: input.edited.theirs.files },
  );
  const reusables = mergeWhole(
    base.reusableContents,
    ours.reusableContents,
    theirs.reusableContents,
    (reusableContent, problem) => {
      const node = ours.reusableContents.get(reusableContent) ?? theirs.reusableContents.get(reusableContent);
      const name = node ? `"${node.title}"` : reusableContent;
      conflicts.push({
        kind: 'reusable-content',
        reusableContent,
        message: `the reusable content ${name} ${problem}`,
      });
    },
  );
  const variables = mergeVariables(base.variables, ours.variables, theirs.variables, (name) => {
    const message = `both sides changed the variable ${name}`;
    conflicts.push({ kind: 'field', page: '', path: '', field: `variables.${name}`, message });
  });

  // Repository layout is bookkeeping of git sync, not content people edit: a side that changed it wins.
  const repository =
    JSON.stringify(ours.repository ?? null) === JSON.stringify(base.repository ?? null)
      ? theirs.repository
      : ours.repository;
  const sameAsOurs =
    pages.pages === ours.pages &&
    files.nodes === ours.files &&
    reusables.nodes === ours.reusableContents &&
    variables === ours.variables &&
    repository === ours.repository;
  const content: RevisionContent = sameAsOurs
    ? ours
    : {
        pages: pages.pages,
        files: files.nodes,
        reusableContents: reusables.nodes,
        variables,
        ...(repository ? { repository } : {}),
      };
  // Pages one side alone touched are as sound as that side; only a mix of both can go wrong.
  if (pages.bothChanged && pages.changed.size > 0) {
    conflicts.push(
      ...checkStructure({
        input,
        result: content,
        touched: pages.touched,
        changed: pages.changed,
        paths: pages.bothPlaced,
      }),
    );
  }
  return {
    content,
    conflicts,
    mergedBodies: pages.mergedBodies,
    changedPages: pages.changed,
    changedFiles: files.changed,
    changedReusableContents: reusables.changed,
  };
}

function unchanged(ours: RevisionContent): MergeResult {
  return {
    content: ours,
    conflicts: [],
    mergedBodies: new Map(),
    changedPages: new Set(),
    changedFiles: new Set(),
    changedReusableContents: new Set(),
  };
}

/** The target has not moved since the ancestor, so the result is the incoming side as it is. */
function takeTheirs(ours: RevisionContent, theirs: RevisionContent, edited?: EditedIds): MergeResult {
  return {
    content: theirs,
    conflicts: [],
    mergedBodies: new Map(),
    changedPages: differingIds(ours.pages, theirs.pages, edited?.pages),
    changedFiles: differingIds(ours.files, theirs.files, edited?.files),
    changedReusableContents: differingIds(ours.reusableContents, theirs.reusableContents),
  };
}
