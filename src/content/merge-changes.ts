import type { PageNode } from './tree.js';

/** How one side's node differs from the common ancestor's. */
export type Change<T> =
  | { kind: 'added'; node: T }
  | { kind: 'deleted'; base: T }
  | { kind: 'changed'; base: T; node: T };

/**
 * Structural equality of JSON-like values. An absent key and a key holding `undefined` are the
 * same: nodes are built by spreading, so either can stand for "not set".
 */
export function deepEqual(a: unknown, b: unknown, skip?: string): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key in left) {
    if (key !== skip && !deepEqual(left[key], right[key])) return false;
  }
  for (const key in right) {
    if (key !== skip && !(key in left) && right[key] !== undefined) return false;
  }
  return true;
}

/** Two page nodes say the same thing; `updatedAt` alone changing is not an edit. */
export function samePage(a: PageNode, b: PageNode): boolean {
  return a === b || deepEqual(a, b, 'updatedAt');
}

/**
 * What `side` changed relative to `base`. Unchanged nodes are normally the very same object
 * (revisions share them), so the reference check settles almost every entry without a deep
 * comparison. `candidates`, when the caller knows them (from a tree diff), are the only ids
 * that can differ, and spare a pass over both maps.
 */
export function changesOf<T>(
  base: ReadonlyMap<string, T>,
  side: ReadonlyMap<string, T>,
  same: (a: T, b: T) => boolean,
  candidates?: Iterable<string>,
): Map<string, Change<T>> {
  const changes = new Map<string, Change<T>>();
  if (base === side) return changes;
  for (const id of candidates ?? new Set([...side.keys(), ...base.keys()])) {
    const before = base.get(id);
    const node = side.get(id);
    if (before === node) continue;
    if (before === undefined) changes.set(id, { kind: 'added', node: node! });
    else if (node === undefined) changes.set(id, { kind: 'deleted', base: before });
    else if (!same(before, node)) changes.set(id, { kind: 'changed', base: before, node });
  }
  return changes;
}

/** Ids whose node differs between two maps, deletions included (`candidates` as for changesOf). */
export function differingIds<T>(
  from: ReadonlyMap<string, T>,
  to: ReadonlyMap<string, T>,
  candidates?: Iterable<string>,
): Set<string> {
  const ids = new Set<string>();
  if (from === to) return ids;
  for (const id of candidates ?? new Set([...to.keys(), ...from.keys()])) {
    const before = from.get(id);
    const node = to.get(id);
    if (before !== node && !deepEqual(before, node)) ids.add(id);
  }
  return ids;
}
