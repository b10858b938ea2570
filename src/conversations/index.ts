/**
 * The conversation analysis engine (AREAS-2 §4.2): issues from support conversations, grouped
 * into clusters offline and deterministically. Pure functions: no I/O, no clock (`now` is
 * passed in), no randomness (fresh ids come from the caller's `newId`). The conversations area
 * stores what they return.
 *
 * - `extractIssue(input)`: the issue of a `ConversationInput`, or undefined when no user spoke;
 * - `analyze(issues, {threshold?, previous?, newId, now})`: a batch run, the clusters (members,
 *   label, summary, weekly pulse, sources) and a storable model for `assign`;
 * - `assign(issue, model, {newId})`: places an issue between two batches;
 * - `describeMembers(id, members, vocabulary, now)`: a cluster's fields again after `assign`;
 * - `weeklyPulse(dates, now)`, `stableIds(groups, previous, newId)`: the parts on their own.
 */
export { analyze, DEFAULT_THRESHOLD } from './analyze.js';
export { type Assignment, assign, DEFAULT_ASSIGN_THRESHOLD } from './assign.js';
export { countsText, describeMembers } from './describe.js';
export { extractIssue, MAX_SUMMARY, MAX_TITLE } from './issues.js';
export { guessLanguage } from './language.js';
export { PULSE_WEEKS, weeklyPulse } from './pulse.js';
export { stableIds } from './stable-ids.js';
export type {
  Analysis,
  AnalyzeOptions,
  Cluster,
  ExtractedIssue,
  Issue,
  Model,
  PreviousClusters,
  SparseVector,
  Vocabulary,
} from './types.js';
