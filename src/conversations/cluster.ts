import type { SparseVector } from './types.js';

/**
 * Average-linkage agglomerative clustering of unit vectors, cut at a similarity threshold: start
 * with one cluster per vector and merge the two most similar clusters while their similarity,
 * the mean cosine over all pairs of their members, is at least `threshold`.
 *
 * Deterministic by construction: vectors are taken in the order given (the caller sorts them by
 * issue id), a cluster is known by its smallest member index, and among equally similar pairs the
 * one with the smallest indexes merges first. Nothing depends on hash order or on time.
 *
 * Cost, for n vectors: the pairwise similarities once (through an inverted index, so only pairs
 * sharing a term cost anything), kept in a triangular Float32Array (n^2 / 2 * 4 bytes: 8 MB for
 * 2,000 issues, 50 MB for 5,000); then each merge updates one row by the Lance-Williams formula
 * and rescans the rows whose nearest neighbour was merged. Average linkage never makes a merged
 * cluster nearer to a third than the nearer of its parts, so no other row's neighbour changes:
 * about O(n^2) in all.
 *
 * Returns the clusters as lists of vector indexes, each ascending, ordered by first index.
 */
export function averageLinkage(vectors: readonly SparseVector[], threshold: number): number[][] {
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError('threshold must be in (0, 1]');
  const n = vectors.length;
  const sim = similarities(vectors);
  const start = rowStarts(n);
  /** Offset of the pair (i, j) in the triangle. */
  const at = (i: number, j: number) => (i < j ? start[i]! + j : start[j]! + i);

  const members: number[][] = vectors.map((_, i) => [i]);
  const active: number[] = vectors.map((_, i) => i);
  const nearest = new Int32Array(n).fill(-1);
  const nearestSim = new Float64Array(n).fill(Number.NEGATIVE_INFINITY);
  /** The most similar other active cluster of `i` (the smallest index among equals). */
  const rescan = (i: number) => {
    let best = -1;
    let bestSim = Number.NEGATIVE_INFINITY;
    for (let x = 0; x < active.length; x++) {
      const k = active[x]!;
      if (k === i) continue;
      const s = sim[k < i ? start[k]! + i : start[i]! + k]!;
      if (s > bestSim) {
        best = k;
        bestSim = s;
      }
    }
    nearest[i] = best;
    nearestSim[i] = bestSim;
  };
  for (const i of active) rescan(i);

  while (active.length > 1) {
    // The most similar pair; among equals, the smallest (first index, second index).
    let a = -1;
    let b = -1;
    let best = Number.NEGATIVE_INFINITY;
    for (let x = 0; x < active.length; x++) {
      const i = active[x]!;
      const s = nearestSim[i]!;
      if (s < best) continue;
      const lo = Math.min(i, nearest[i]!);
      const hi = Math.max(i, nearest[i]!);
      if (s > best || lo < a || (lo === a && hi < b)) {
        best = s;
        a = lo;
        b = hi;
      }
    }
    if (best < threshold) break;

    // Merge b into a (a < b, so a cluster stays known by its smallest member).
    const sizeA = members[a]!.length;
    const sizeB = members[b]!.length;
    active.splice(active.indexOf(b), 1);
    for (let x = 0; x < active.length; x++) {
      const k = active[x]!;
      if (k === a) continue;
      const ka = at(k, a);
      sim[ka] = (sizeA * sim[ka]! + sizeB * sim[at(k, b)]!) / (sizeA + sizeB);
      // Rounding may lift the mean a hair above both parts; keep the invariant exact.
      const stored = sim[ka]!;
      if (stored > nearestSim[k]! || (stored === nearestSim[k]! && a < nearest[k]!)) {
        nearest[k] = a;
        nearestSim[k] = stored;
      }
    }
    members[a] = members[a]!.concat(members[b]!);
    members[b] = [];
    rescan(a);
    for (let x = 0; x < active.length; x++) {
      const k = active[x]!;
      if (k !== a && (nearest[k] === a || nearest[k] === b)) rescan(k);
    }
  }
  return active.map((i) => members[i]!.sort((x, y) => x - y));
}

/** Cosine of every pair (i < j) of unit vectors, in a triangle, through an inverted index. */
function similarities(vectors: readonly SparseVector[]): Float32Array {
  const n = vectors.length;
  const sim = new Float32Array((n * (n - 1)) / 2);
  // Postings in ascending vector order: each row reads only the vectors after it.
  const postings = new Map<number, { docs: number[]; weights: number[] }>();
  vectors.forEach((v, i) => {
    for (let k = 0; k < v.terms.length; k++) {
      let list = postings.get(v.terms[k]!);
      if (!list) {
        list = { docs: [], weights: [] };
        postings.set(v.terms[k]!, list);
      }
      list.docs.push(i);
      list.weights.push(v.weights[k]!);
    }
  });
  const start = rowStarts(n);
  const cursor = new Map<number, number>();
  const acc = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = vectors[i]!;
    for (let k = 0; k < v.terms.length; k++) {
      const term = v.terms[k]!;
      const list = postings.get(term)!;
      // The vectors before i were read already; i itself is next in the list.
      const from = (cursor.get(term) ?? 0) + 1;
      cursor.set(term, from);
      for (let p = from; p < list.docs.length; p++) acc[list.docs[p]!]! += v.weights[k]! * list.weights[p]!;
    }
    for (let j = i + 1; j < n; j++) {
      sim[start[i]! + j] = acc[j]!;
      acc[j] = 0;
    }
  }
  return sim;
}

/** Where each row of the triangle starts, minus its first column: pair (i, j > i) is at start[i] + j. */
function rowStarts(n: number): Float64Array {
  const start = new Float64Array(n);
  for (let i = 0, offset = 0; i < n; offset += n - i - 1, i++) start[i] = offset - i - 1;
  return start;
}
