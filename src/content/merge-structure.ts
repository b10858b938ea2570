import { locatePage } from './merge-pages.js';
import type { MergeConflict, MergeInput } from './merge-types.js';
import { type PageIndexes, updateIndexes } from './page-indexes.js';
import { pathOf, type RevisionContent } from './tree.js';

export interface StructureCheck {
  input: MergeInput;
  result: RevisionContent;
  /** Pages changed on either side; each side alone was sound, so only these can be misplaced. */
  touched: Iterable<string>;
  /** Pages whose node differs from the target's (`ours`), deleted ones included. */
  changed: ReadonlySet<string>;
  /** Look for path collisions. */
  paths: boolean;
}

/**
 * Problems neither side had but their combination does: a parent deleted under a page the
 * other side moved or added there, two moves making a cycle, a group moved off the top level,
 * two pages given the same path.
 */
export function checkStructure(check: StructureCheck): MergeConflict[] {
  const { input, result } = check;
  const conflicts: MergeConflict[] = [];
  const structure = (page: string, message: (label: string) => string) => {
    const { path, label } = locatePage(input, page);
    conflicts.push({ kind: 'structure', page, path, message: message(label) });
  };
  const inCycle = new Set<string>();
  for (const id of check.touched) {
    const page = result.pages.get(id);
    if (!page || inCycle.has(id)) continue;
    if (page.type === 'group' && page.parent !== null) {
      structure(id, (label) => `the group ${label} would no longer be at the top level`);
    }
    if (page.parent !== null && !result.pages.has(page.parent)) {
      structure(id, (label) => `${label} would be inside a page that the other side deleted`);
      continue;
    }
    const cycle = cycleThrough(result, id);
    if (cycle) {
      for (const member of cycle) inCycle.add(member);
      const labels = cycle.map((member) => locatePage(input, member).label);
      structure(id, () => `moves on both sides would put ${labels.join(' and ')} inside each other`);
    }
  }
  if (check.paths && inCycle.size === 0) conflicts.push(...pathCollisions(check));
  return conflicts;
}

/** The pages of the cycle `id` is on, following parents; null when its ancestry ends. */
function cycleThrough(content: RevisionContent, id: string): string[] | null {
  const chain = [id];
  const seen = new Set(chain);
  let current = content.pages.get(id)?.parent ?? null;
  while (current !== null) {
    if (current === id) return chain;
    // A loop above `id` that it is not part of is found again from one of its own pages.
    if (seen.has(current)) return null;
    seen.add(current);
    chain.push(current);
    current = content.pages.get(current)?.parent ?? null;
  }
  return null;
}

/**
 * Documents sharing a path, and groups sharing a slug, that neither side had alone. Links have
 * no path of their own; a group's slug is never part of its pages' paths, so a group and a
 * document do not clash.
 */
function pathCollisions(check: StructureCheck): MergeConflict[] {
  const { input, result } = check;
  if (input.oursIndexes) {
    const indexes = updateIndexes(input.oursIndexes, input.ours.pages, result.pages, check.changed);
    if (!mayCollide(result, indexes, check.changed)) return [];
  }
  const byPath = new Map<string, string[]>();
  for (const page of result.pages.values()) {
    if (page.type === 'link') continue;
    const path = pathOf(result, page.id);
    if (!path) continue;
    const key = `${page.type}:${path}`;
    const ids = byPath.get(key);
    if (ids) ids.push(page.id);
    else byPath.set(key, [page.id]);
  }
  const touched = new Set(check.touched);
  const conflicts: MergeConflict[] = [];
  for (const [key, ids] of byPath) {
    if (ids.length < 2) continue;
    const path = key.slice(key.indexOf(':') + 1);
    if (sharedOn(input.ours, ids, path) || sharedOn(input.theirs, ids, path)) continue;
    const page = ids.find((id) => touched.has(id)) ?? ids[0]!;
    const titles = ids.map((id) => JSON.stringify(result.pages.get(id)!.title)).join(', ');
    const message = `${ids.length} pages would have the path ${path}: ${titles}`;
    conflicts.push({ kind: 'structure', page, path, message });
  }
  return conflicts;
}

/**
 * False when no collision can be reported, found without computing every page's path: each
 * collision reported has a page whose path differs from its path on `ours` (or that `ours`
 * lacks), else `ours` had it already. Only the changed pages and the pages below them can be
 * such pages, and a page sharing one's path has a slug ending that path, so only those are
 * compared. True sends the caller to the full check, which decides, so the conflicts are the
 * same either way; it also answers true when the comparisons would cost more than that check.
 */
function mayCollide(result: RevisionContent, indexes: PageIndexes, changed: ReadonlySet<string>): boolean {
  let budget = result.pages.size;
  const paths = new Map<string, string>();
  const path = (id: string) => {
    let known = paths.get(id);
    if (known === undefined) {
      known = pathOf(result, id);
      paths.set(id, known);
    }
    return known;
  };
  // The changed pages and all the pages below them (below a deleted one too).
  const moved = new Set<string>();
  const queue = [...changed];
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    if (moved.has(id)) continue;
    moved.add(id);
    for (const child of indexes.children.get(id) ?? []) queue.push(child);
  }
  for (const id of moved) {
    const page = result.pages.get(id);
    if (!page || page.type === 'link') continue;
    const own = path(id);
    if (!own) continue;
    // The slugs a page with this path can have: the path after any '/' or all of it, or none.
    const segments = own.split('/');
    const slugs = new Set(['', ...segments.map((_, i) => segments.slice(i).join('/'))]);
    for (const slug of slugs) {
      for (const other of indexes.slugs.get(slug) ?? []) {
        if (--budget < 0) return true;
        if (other === id || result.pages.get(other)?.type !== page.type) continue;
        if (path(other) === own) return true;
      }
    }
  }
  return false;
}

/** The collision was already there on that side, so the merge did not make it. */
function sharedOn(side: RevisionContent, ids: string[], path: string): boolean {
  return ids.every((id) => side.pages.has(id) && pathOf(side, id) === path);
}
