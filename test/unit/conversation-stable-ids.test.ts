import { describe, expect, it } from 'vitest';
import { analyze, stableIds } from '../../src/conversations/index.js';
import { corpus, issuesOf, laterConversations, NOW } from '../fixtures/conversations/generate.js';

const ids = (prefix: string) => {
  let n = 0;
  return () => `${prefix}${++n}`;
};

describe('stable cluster ids', () => {
  it('gives each group the id of the old cluster it shares most with, each old id once', () => {
    const previous = { A: ['1', '2', '3'], B: ['4', '5'], C: ['6'], D: ['7', '8'] };
    const groups = [
      ['1', '2', '4', '9'], // 2 of A, 1 of B: takes A
      ['3'], // the rest of A, which is taken: a fresh id
      ['10', '11'], // nothing old: a fresh id
      ['5', '6', '7'], // 1 each of B, C and D: the smallest id, B
      ['8'], // 1 of D, which is free; C is gone (its member merged away)
    ];
    const expected = ['A', 'new-1', 'new-2', 'B', 'D'];
    expect(stableIds(groups, previous, ids('new-'))).toEqual(expected);
    // A Map is read the same, and no previous clusters means all fresh ids.
    expect(stableIds(groups, new Map(Object.entries(previous)), ids('new-'))).toEqual(expected);
    expect(stableIds([['1'], ['2']], undefined, ids('x'))).toEqual(['x1', 'x2']);
  });

  it('breaks ties between groups by their first member', () => {
    // Both groups share 1 member with A: the group whose first member sorts first takes it.
    expect(
      stableIds(
        [
          ['b', 'y'],
          ['a', 'z'],
        ],
        { A: ['y', 'z'] },
        ids('n'),
      ),
    ).toEqual(['n1', 'A']);
  });

  it('keeps the ids of the clusters that persist after 10% more issues arrive', () => {
    const before = analyze(
      issuesOf(corpus()).map((l) => l.issue),
      { newId: ids('old-'), now: NOW },
    );
    const later = issuesOf(laterConversations()).map((l) => l.issue);
    const all = [...issuesOf(corpus()).map((l) => l.issue), ...later];
    expect(later.length / (all.length - later.length)).toBeGreaterThan(0.09);
    const previous = Object.fromEntries(before.clusters.map((c) => [c.id, c.members]));
    const after = analyze(all, { previous, newId: ids('new-'), now: NOW });

    // A cluster persists when a new cluster holds most of its members and they are most of the
    // new cluster's old members: then it must keep its id.
    const oldOf = new Map<string, string>();
    for (const c of before.clusters) for (const m of c.members) oldOf.set(m, c.id);
    let persisting = 0;
    for (const cluster of after.clusters) {
      const counts = new Map<string, number>();
      for (const m of cluster.members) {
        const old = oldOf.get(m);
        if (old) counts.set(old, (counts.get(old) ?? 0) + 1);
      }
      const olds = [...counts.values()].reduce((a, b) => a + b, 0);
      for (const [old, shared] of counts) {
        if (shared * 2 > previous[old]!.length && shared * 2 > olds) {
          expect(cluster.id).toBe(old);
          persisting++;
        }
      }
      if (olds === 0) expect(cluster.id).toMatch(/^new-/);
    }
    // Most clusters persist (every large one); the ids are unique.
    const large = before.clusters.filter((c) => c.issues >= 5).map((c) => c.id);
    for (const id of large) expect(after.clusters.map((c) => c.id)).toContain(id);
    console.log(
      `stable ids: ${before.clusters.length} clusters, +${later.length} issues -> ${after.clusters.length} ` +
        `clusters; ${persisting} persist and keep their ids`,
    );
    expect(persisting).toBeGreaterThan(before.clusters.length * 0.8);
    expect(new Set(after.clusters.map((c) => c.id)).size).toBe(after.clusters.length);
  });
});
