import { CowMap } from './cow-map.js';
import { mergeText } from './merge-body.js';
import { type Change, changesOf, deepEqual, samePage } from './merge-changes.js';
import type { MergeConflict, MergeInput } from './merge-types.js';
import { type PageNode, pathOf } from './tree.js';

/** Fields merged one by one; the others (`id`, `createdAt`) come with the target's node. */
const FIELDS = [
  'title',
  'slug',
  'emoji',
  'icon',
  'description',
  'hidden',
  'noIndex',
  'noRobotsIndex',
  'layout',
  'cover',
  'target',
  'href',
  'type',
  'parent',
  'order',
  'git',
] as const satisfies readonly (keyof PageNode)[];

type Field = (typeof FIELDS)[number];

/** Fields that decide where a page sits and what its path is. */
const PLACEMENT: readonly Field[] = ['slug', 'parent', 'type'];

export interface PagesMerge {
  pages: ReadonlyMap<string, PageNode>;
  changed: Set<string>;
  mergedBodies: Map<string, string>;
  /** Ids changed on either side: the only pages a merge can have put in a bad place. */
  touched: Set<string>;
  /** Both sides changed pages (not necessarily the same ones). */
  bothChanged: boolean;
  /** Both sides moved, renamed, retyped or added pages, so paths may now collide. */
  bothPlaced: boolean;
}

/** Where a page is, for a conflict: its path on whichever side still has it, and a readable name. */
export function locatePage(input: MergeInput, id: string): { path: string; label: string } {
  for (const side of [input.ours, input.theirs, input.base]) {
    const page = side.pages.get(id);
    if (!page) continue;
    const path = pathOf(side, id);
    return { path, label: path || `"${page.title}"` };
  }
  return { path: '', label: id };
}

export async function mergePages(input: MergeInput, conflicts: MergeConflict[]): Promise<PagesMerge> {
  const { base, ours, theirs } = input;
  const theirChanges = changesOf(base.pages, theirs.pages, samePage, input.edited?.theirs.pages);
  const changed = new Set<string>();
  const mergedBodies = new Map<string, string>();
  if (theirChanges.size === 0) {
    return {
      pages: ours.pages,
      changed,
      mergedBodies,
      touched: new Set(),
      bothChanged: false,
      bothPlaced: false,
    };
  }
  const ourChanges = changesOf(base.pages, ours.pages, samePage, input.edited?.ours.pages);
  const pages = CowMap.of(ours.pages);
  for (const [id, theirChange] of theirChanges) {
    const merged = await mergePage(input, id, ourChanges.get(id), theirChange, conflicts, mergedBodies);
    if (merged === 'keep') continue;
    if (merged === null) pages.delete(id);
    else pages.set(id, merged);
    if (ours.pages.get(id) !== (merged ?? undefined)) changed.add(id);
  }
  return {
    pages,
    changed,
    mergedBodies,
    touched: new Set([...ourChanges.keys(), ...theirChanges.keys()]),
    bothChanged: ourChanges.size > 0,
    bothPlaced: placesPages(ourChanges) && placesPages(theirChanges),
  };
}

function placesPages(changes: Map<string, Change<PageNode>>): boolean {
  for (const change of changes.values()) {
    if (change.kind === 'added') return true;
    if (change.kind === 'changed' && PLACEMENT.some((f) => change.base[f] !== change.node[f])) return true;
  }
  return false;
}

/** The page's node after merging, `null` to delete it, or 'keep' for the target's node as it is. */
async function mergePage(
  input: MergeInput,
  id: string,
  ourChange: Change<PageNode> | undefined,
  theirChange: Change<PageNode>,
  conflicts: MergeConflict[],
  mergedBodies: Map<string, string>,
): Promise<PageNode | null | 'keep'> {
  const deleteEdit = (deletedOn: string, editedOn: string) => {
    const { path, label } = locatePage(input, id);
    const message = `${label} was deleted on the ${deletedOn} side and edited on the ${editedOn} side`;
    conflicts.push({ kind: 'delete-edit', page: id, path, message });
    return 'keep' as const;
  };
  if (theirChange.kind === 'deleted') {
    if (ourChange?.kind === 'changed') return deleteEdit('incoming', 'target');
    return ourChange ? 'keep' : null;
  }
  if (!ourChange) return theirChange.node;
  if (ourChange.kind === 'deleted') return deleteEdit('target', 'incoming');
  if (ourChange.kind === 'changed' && theirChange.kind === 'changed') {
    return mergeFields(input, id, ourChange.base, ourChange.node, theirChange.node, conflicts, mergedBodies);
  }
  // Only both having added the same id is left: with nothing to merge from, they must agree.
  if (samePage(ourChange.node, theirChange.node)) return 'keep';
  return mergeFields(input, id, undefined, ourChange.node, theirChange.node, conflicts, mergedBodies);
}

type Pick = { value: unknown } | { clash: true };

function pick(field: Field | 'body', base: unknown, ours: unknown, theirs: unknown): Pick {
  if (deepEqual(ours, theirs)) return { value: ours };
  if (deepEqual(base, ours)) return { value: theirs };
  if (deepEqual(base, theirs)) return { value: ours };
  // Sibling order is cosmetic: the incoming side wins rather than stopping the merge.
  if (field === 'order') return { value: theirs };
  return { clash: true };
}

async function mergeFields(
  input: MergeInput,
  id: string,
  base: PageNode | undefined,
  ours: PageNode,
  theirs: PageNode,
  conflicts: MergeConflict[],
  mergedBodies: Map<string, string>,
): Promise<PageNode | 'keep'> {
  const merged: Record<string, unknown> = { ...ours };
  const found: MergeConflict[] = [];
  const where = () => locatePage(input, id);
  for (const field of FIELDS) {
    const result = pick(field, base?.[field], ours[field], theirs[field]);
    if ('value' in result) merged[field] = result.value;
    else {
      const { path, label } = where();
      const message = base
        ? `both sides changed the ${field} of ${label}${showValues(ours[field], theirs[field])}`
        : `both sides added ${label} with a different ${field}${showValues(ours[field], theirs[field])}`;
      found.push({ kind: 'field', page: id, path, field, message });
    }
  }
  // A missing body and a null one both mean an empty page.
  const ourBody = ours.body ?? null;
  const theirBody = theirs.body ?? null;
  const body = pick('body', base ? (base.body ?? null) : undefined, ourBody, theirBody);
  let text: string | undefined;
  if ('value' in body) {
    if (body.value !== ourBody) merged.body = body.value;
  } else if (!base) {
    const { path, label } = where();
    found.push({ kind: 'body', page: id, path, message: `both sides added ${label} with different text` });
  } else {
    const [baseText = '', ourText = '', theirText = ''] = await Promise.all(
      [base.body, ourBody, theirBody].map((hash) => (hash ? input.loadBody(hash) : '')),
    );
    const result = mergeText(baseText, ourText, theirText);
    if (!result.ok) {
      const { path, label } = where();
      found.push({ kind: 'body', page: id, path, message: `both sides ${result.clash} of ${label}` });
    } else if (result.text === theirText) merged.body = theirBody;
    // Text equal to the target's keeps its hash; anything new is for the caller to store.
    else if (result.text !== ourText) text = result.text;
  }
  if (found.length > 0) {
    conflicts.push(...found);
    return 'keep';
  }
  merged.updatedAt = later(ours.updatedAt, theirs.updatedAt);
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  if (text !== undefined) mergedBodies.set(id, text);
  else if (deepEqual(merged, ours)) return 'keep';
  return merged as unknown as PageNode;
}

function showValues(ours: unknown, theirs: unknown): string {
  const plain = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  return plain(ours) && plain(theirs) ? ` (${JSON.stringify(ours)} and ${JSON.stringify(theirs)})` : '';
}

function later(a: string, b: string): string {
  const [ta, tb] = [Date.parse(a), Date.parse(b)];
  if (Number.isNaN(ta) || Number.isNaN(tb)) return a >= b ? a : b;
  return ta >= tb ? a : b;
}
