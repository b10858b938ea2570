/**
 * The shapes of the conversation analysis engine, in one place. The engine is pure: it reads
 * issues and earlier clusters and returns clusters; storing them is the conversations area's job.
 */

/** What extraction finds in a conversation (AREAS-2 §4.2): one issue, or none. */
export interface ExtractedIssue {
  title: string;
  summary: string;
  /** A language code of `src/search/analyzer.ts` (en, fr, de, …, ja, zh, ko), or `und`. */
  language: string;
}

/** An issue as the engine clusters it: what extraction found plus where it came from. */
export interface Issue {
  /** Unique and stable: every order and tie is decided by it. */
  id: string;
  /** The conversation it came from (clusters count distinct conversations). */
  conversation: string;
  /** The conversation's source (`integration:<a>:<b>`, `email`), counted per cluster. */
  source: string;
  title: string;
  summary: string;
  /** ISO 8601; the weekly pulse counts issues by it. */
  createdAt: string;
  /** Analysis language; guessed from the text when absent. */
  language?: string;
}

/**
 * A sparse vector: term indexes ascending, with their weights. Indexes refer to a `Vocabulary`;
 * vectors of different vocabularies cannot be compared.
 */
export interface SparseVector {
  terms: number[];
  weights: number[];
}

/**
 * The TF-IDF space of one batch: each term's index and document frequency, kept so issues that
 * arrive before the next batch are weighed as that batch weighed its own (plain JSON: storable).
 */
export interface Vocabulary {
  /** Issues the frequencies were counted over. */
  documents: number;
  /** Terms, sorted; a term's index is its position here. */
  terms: string[];
  /** Document frequency of each term, by index. */
  df: number[];
}

/** A cluster of issues, with the fields of the API's `issues-cluster` the engine can compute. */
export interface Cluster {
  id: string;
  /** Member issue ids, sorted. */
  members: string[];
  /** The member nearest the centroid (ties by id): its title is the label. */
  medoid: string;
  label: string;
  /** The medoid's summary, then "N issues from M conversations". */
  summary: string;
  issues: number;
  conversations: number;
  /** Exactly 13 weekly counts, oldest first, over the 13 weeks ending at `now`. */
  weeklyPulse: number[];
  /** Issues per conversation source, keys sorted. */
  sources: Record<string, number>;
  /** Mean of the members' unit vectors, in the vocabulary of the analysis that made it. */
  centroid: SparseVector;
}

/** What `assign` needs between two batch runs: plain JSON, so it can be stored with the clusters. */
export interface Model {
  vocabulary: Vocabulary;
  clusters: Array<{ id: string; size: number; centroid: SparseVector }>;
}

/** The result of a batch run. */
export interface Analysis {
  /** Largest first, then by first member id. */
  clusters: Cluster[];
  model: Model;
}

/** Clusters of an earlier run, for stable ids: cluster id -> member issue ids. */
export type PreviousClusters = Record<string, readonly string[]> | ReadonlyMap<string, readonly string[]>;

export interface AnalyzeOptions {
  /** Average-linkage cut: clusters merge while their mean pairwise cosine is at least this. */
  threshold?: number;
  previous?: PreviousClusters;
  /** Called once per cluster that takes no earlier id, in output order. */
  newId: () => string;
  /** End of the weekly pulse (injected clock). */
  now: Date;
}
