import { termsOf } from './describe.js';
import type { Issue, Model } from './types.js';
import { addToCentroid, dot, norm, vectorize } from './vectors.js';

export interface Assignment {
  /** The cluster the issue is in now: an existing one, or a new one when `created`. */
  clusterId: string;
  created: boolean;
  /** Cosine between the issue and the nearest centroid before it joined (0 when none). */
  similarity: number;
  /** The model with the issue counted in: pass it to the next `assign`. */
  model: Model;
}

/**
 * The cosine to a centroid an issue needs to join its cluster between two batches. Not the batch
 * threshold: a centroid is shorter than a unit vector (the mean of members that differ), so an
 * issue's cosine to it is its mean cosine to the members divided by the centroid's length, about
 * 0.5 for the fixture clusters. Measured on the fixture corpus (conversation-assign.test.ts):
 * later issues of known topics are at 0.30 or more from their topic's centroid, issues of topics
 * the corpus lacks at 0.16 or less from the nearest one; 0.25 lies between.
 */
export const DEFAULT_ASSIGN_THRESHOLD = 0.25;

/**
 * Places an issue that arrives between two batch analyses: it joins the cluster whose centroid
 * is nearest (cosine; ties by cluster id) when that cosine is at least the threshold, else it
 * starts a cluster of its own with an id from `newId`. The cluster's centroid moves to include it.
 *
 * The issue is weighed in the vocabulary of the last batch (its idf are not recounted), so a
 * word no issue of that batch had cannot draw it to any cluster. The next batch settles what
 * this placed.
 *
 * Pure: `model` is not changed; the returned one shares what did not change.
 */
export function assign(
  issue: Issue,
  model: Model,
  options: { newId: () => string; threshold?: number },
): Assignment {
  const threshold = options.threshold ?? DEFAULT_ASSIGN_THRESHOLD;
  const vector = vectorize(termsOf(issue), model.vocabulary);
  let nearest = -1;
  let similarity = 0;
  model.clusters.forEach((cluster, i) => {
    const length = norm(cluster.centroid);
    const s = length === 0 ? 0 : dot(vector, cluster.centroid) / length;
    if (nearest < 0 || s > similarity || (s === similarity && cluster.id < model.clusters[nearest]!.id)) {
      nearest = i;
      similarity = s;
    }
  });
  if (nearest >= 0 && similarity >= threshold) {
    const cluster = model.clusters[nearest]!;
    const clusters = [...model.clusters];
    clusters[nearest] = {
      id: cluster.id,
      size: cluster.size + 1,
      centroid: addToCentroid(cluster.centroid, cluster.size, vector),
    };
    return { clusterId: cluster.id, created: false, similarity, model: { ...model, clusters } };
  }
  const id = options.newId();
  return {
    clusterId: id,
    created: true,
    similarity,
    model: { ...model, clusters: [...model.clusters, { id, size: 1, centroid: vector }] },
  };
}
