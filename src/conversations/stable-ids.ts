import type { PreviousClusters } from './types.js';

/**
 * Ids for a new grouping that keep the ids of the clusters that persist, so links to a cluster
 * (change requests opened for it, bookmarks) survive a re-clustering.
 *
 * Each new group takes the id of the old cluster it shares the most members with, each old id at
 * most once: the pairs (new group, old cluster) that share members are taken largest overlap
 * first, ties by old id and then by the group's first member id, and a pair is kept when neither
 * side is taken yet. So a group holding most of an old cluster, and mostly that cluster's
 * members, always keeps its id; when two old clusters merge, the merged group keeps the id of
 * the one it holds more of; when one splits, the larger part keeps it.
 *
 * Groups left without an old id get `newId()`, called in the order of `groups`.
 *
 * `groups` are lists of issue ids, each sorted; returns one id per group, in the same order.
 */
export function stableIds(
  groups: readonly (readonly string[])[],
  previous: PreviousClusters | undefined,
  newId: () => string,
): string[] {
  const oldOf = new Map<string, string[]>();
  const entries = previous instanceof Map ? [...previous] : Object.entries(previous ?? {});
  for (const [id, members] of entries) {
    for (const issue of members) {
      const list = oldOf.get(issue);
      if (list) list.push(id);
      else oldOf.set(issue, [id]);
    }
  }

  const pairs: Array<{ group: number; old: string; overlap: number }> = [];
  groups.forEach((members, group) => {
    const overlaps = new Map<string, number>();
    for (const issue of members)
      for (const old of oldOf.get(issue) ?? []) overlaps.set(old, (overlaps.get(old) ?? 0) + 1);
    for (const [old, overlap] of overlaps) pairs.push({ group, old, overlap });
  });
  const first = (group: number) => groups[group]![0] ?? '';
  pairs.sort(
    (x, y) =>
      y.overlap - x.overlap ||
      compare(x.old, y.old) ||
      compare(first(x.group), first(y.group)) ||
      x.group - y.group,
  );

  const ids: Array<string | undefined> = groups.map(() => undefined);
  const used = new Set<string>();
  for (const { group, old } of pairs) {
    if (ids[group] !== undefined || used.has(old)) continue;
    ids[group] = old;
    used.add(old);
  }
  return ids.map((id) => id ?? newId());
}

/** Code-unit order: the same on every machine, unlike localeCompare. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
