import type { SparseVector, Vocabulary } from './types.js';

/**
 * TF-IDF vectors. Weights are the usual smoothed ones: tf = 1 + ln(count) (a word repeated in
 * one message should not outweigh two different words), idf = ln((1 + N) / (1 + df)) + 1 (a
 * term in every issue still weighs a little, an unseen one the most). Vectors are L2-normalized,
 * so cosine similarity is a dot product.
 */

/** The vocabulary of a batch: every term of its issues, with how many issues hold it. */
export function buildVocabulary(documents: readonly (readonly string[])[]): Vocabulary {
  const counts = new Map<string, number>();
  for (const terms of documents)
    for (const term of new Set(terms)) counts.set(term, (counts.get(term) ?? 0) + 1);
  // Code-unit order, not locale order: the same on every machine.
  const terms = [...counts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { documents: documents.length, terms, df: terms.map((term) => counts.get(term)!) };
}

const indexes = new WeakMap<Vocabulary, Map<string, number>>();

function indexOf(vocabulary: Vocabulary): Map<string, number> {
  let index = indexes.get(vocabulary);
  if (!index) {
    index = new Map(vocabulary.terms.map((term, i) => [term, i]));
    indexes.set(vocabulary, index);
  }
  return index;
}

/**
 * The unit TF-IDF vector of an issue's terms. A term the vocabulary has never seen (an issue
 * assigned between batches) counts in the norm with the largest idf, as a term of one issue does
 * in a batch, but has no index: no cluster can share it.
 */
export function vectorize(terms: readonly string[], vocabulary: Vocabulary): SparseVector {
  const index = indexOf(vocabulary);
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  const known: Array<[number, number]> = [];
  let norm = 0;
  for (const [term, count] of counts) {
    const i = index.get(term);
    const df = i === undefined ? 0 : vocabulary.df[i]!;
    const weight = (1 + Math.log(count)) * (Math.log((1 + vocabulary.documents) / (1 + df)) + 1);
    norm += weight * weight;
    if (i !== undefined) known.push([i, weight]);
  }
  known.sort((a, b) => a[0] - b[0]);
  const length = Math.sqrt(norm);
  return { terms: known.map(([i]) => i), weights: known.map(([, w]) => w / length) };
}

/** Dot product of two sparse vectors (their cosine when both are unit vectors). */
export function dot(a: SparseVector, b: SparseVector): number {
  let sum = 0;
  let i = 0;
  let j = 0;
  while (i < a.terms.length && j < b.terms.length) {
    const ta = a.terms[i]!;
    const tb = b.terms[j]!;
    if (ta === tb) sum += a.weights[i++]! * b.weights[j++]!;
    else if (ta < tb) i++;
    else j++;
  }
  return sum;
}

export function norm(v: SparseVector): number {
  let sum = 0;
  for (const w of v.weights) sum += w * w;
  return Math.sqrt(sum);
}

/** Cosine similarity; 0 when either vector is empty. */
export function cosine(a: SparseVector, b: SparseVector): number {
  const lengths = norm(a) * norm(b);
  return lengths === 0 ? 0 : dot(a, b) / lengths;
}

/** The mean of vectors (not normalized: its length says how alike they are), summed in order. */
export function centroid(vectors: readonly SparseVector[]): SparseVector {
  const sums = new Map<number, number>();
  for (const v of vectors) {
    for (let k = 0; k < v.terms.length; k++)
      sums.set(v.terms[k]!, (sums.get(v.terms[k]!) ?? 0) + v.weights[k]!);
  }
  const terms = [...sums.keys()].sort((a, b) => a - b);
  return { terms, weights: terms.map((t) => sums.get(t)! / vectors.length) };
}

/** `c` (the centroid of `size` vectors) with `v` added: the centroid of size + 1. */
export function addToCentroid(c: SparseVector, size: number, v: SparseVector): SparseVector {
  const sums = new Map<number, number>();
  for (let k = 0; k < c.terms.length; k++) sums.set(c.terms[k]!, c.weights[k]! * size);
  for (let k = 0; k < v.terms.length; k++)
    sums.set(v.terms[k]!, (sums.get(v.terms[k]!) ?? 0) + v.weights[k]!);
  const terms = [...sums.keys()].sort((a, b) => a - b);
  return { terms, weights: terms.map((t) => sums.get(t)! / (size + 1)) };
}
