import { guessLanguage } from './language.js';
import { weeklyPulse } from './pulse.js';
import { issueTerms } from './terms.js';
import type { Cluster, Issue, SparseVector, Vocabulary } from './types.js';
import { centroid, dot, vectorize } from './vectors.js';

/** The terms of an issue: its title and summary, in its language (or the guessed one). */
export function termsOf(issue: Issue): string[] {
  const text = `${issue.title}\n${issue.summary}`;
  return issueTerms(text, issue.language ?? guessLanguage(text));
}

/** Issues in id order (code units), the order every computation reads them in. */
export function byId<T extends { id: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The fields of a cluster from its members (sorted by id) and their vectors, in the same order:
 *
 * - the medoid is the member most similar to the centroid (the first in id order among equals;
 *   members' vectors are unit vectors, so comparing dot products compares cosines), and the
 *   label is its title: a real issue's words rather than a list of terms;
 * - the summary is the medoid's summary and how many issues and conversations the cluster holds;
 * - the weekly pulse counts members by their `createdAt`, sources count members by source.
 */
export function describeCluster(
  id: string,
  members: readonly Issue[],
  vectors: readonly SparseVector[],
  now: Date,
): Cluster {
  if (members.length === 0) throw new RangeError('a cluster has at least one issue');
  const center = centroid(vectors);
  let medoid = 0;
  let best = Number.NEGATIVE_INFINITY;
  vectors.forEach((v, i) => {
    const s = dot(v, center);
    if (s > best) {
      best = s;
      medoid = i;
    }
  });
  const conversations = new Set(members.map((m) => m.conversation)).size;
  const counts = new Map<string, number>();
  for (const m of members) counts.set(m.source, (counts.get(m.source) ?? 0) + 1);
  const sources: Record<string, number> = {};
  for (const source of [...counts.keys()].sort()) sources[source] = counts.get(source)!;
  const chosen = members[medoid]!;
  return {
    id,
    members: members.map((m) => m.id),
    medoid: chosen.id,
    label: chosen.title,
    summary: `${chosen.summary}\n\n${countsText(members.length, conversations)}`,
    issues: members.length,
    conversations,
    weeklyPulse: weeklyPulse(
      members.map((m) => m.createdAt),
      now,
    ),
    sources,
    centroid: center,
  };
}

/** "N issues from M conversations", in the singular where it is one. */
export function countsText(issues: number, conversations: number): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(issues, 'issue')} from ${plural(conversations, 'conversation')}`;
}

/**
 * The fields of a cluster from its members alone, in the vocabulary of the last batch: for a
 * cluster an issue joined between two batches (`assign`), whose label and pulse are now stale.
 */
export function describeMembers(
  id: string,
  members: readonly Issue[],
  vocabulary: Vocabulary,
  now: Date,
): Cluster {
  const sorted = byId(members);
  return describeCluster(
    id,
    sorted,
    sorted.map((m) => vectorize(termsOf(m), vocabulary)),
    now,
  );
}
