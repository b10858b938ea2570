import { describe, expect, it } from 'vitest';
import {
  analyze,
  assign,
  DEFAULT_ASSIGN_THRESHOLD,
  describeMembers,
  type Issue,
} from '../../src/conversations/index.js';
import { corpus, issuesOf, laterConversations, NOW } from '../fixtures/conversations/generate.js';
import { NEW_TOPIC_MESSAGES } from '../fixtures/conversations/templates-en.js';

const labelled = issuesOf(corpus());
const topicOf = new Map(labelled.map((l) => [l.issue.id, l.topic]));
let fresh = 0;
const { clusters, model } = analyze(
  labelled.map((l) => l.issue),
  { newId: () => `k${++fresh}`, now: NOW },
);

/** The cluster holding most of a topic's issues. */
function clusterOfTopic(topic: string) {
  const count = (c: (typeof clusters)[number]) => c.members.filter((m) => topicOf.get(m) === topic).length;
  return clusters.reduce((best, c) => (count(c) > count(best) ? c : best));
}

const issue = (id: string, text: string): Issue => ({
  id,
  conversation: `conv-${id}`,
  source: 'email',
  title: text,
  summary: text,
  createdAt: NOW.toISOString(),
});

describe('assigning an issue between two batches', () => {
  it("puts a near-duplicate into its topic's cluster and moves that cluster's centroid", () => {
    const target = clusterOfTopic('password-reset');
    const duplicate = issue('x1', 'Hello, the password reset email never arrived. I requested it twice.');
    const result = assign(duplicate, model, { newId: () => 'unused' });
    // The model is plain JSON: stored and read back, it places the issue the same.
    expect(assign(duplicate, JSON.parse(JSON.stringify(model)), { newId: () => 'unused' })).toEqual(result);
    expect(result).toMatchObject({ clusterId: target.id, created: false });
    expect(result.similarity).toBeGreaterThanOrEqual(DEFAULT_ASSIGN_THRESHOLD);
    const before = model.clusters.find((c) => c.id === target.id)!;
    const after = result.model.clusters.find((c) => c.id === target.id)!;
    expect(after.size).toBe(before.size + 1);
    expect(after.centroid).not.toEqual(before.centroid);
    // The model passed in is unchanged.
    expect(model.clusters.find((c) => c.id === target.id)).toBe(before);
  });

  it('starts a new cluster for a topic the batch did not have, which the next issue on it joins', () => {
    const first = assign(issue('x2', NEW_TOPIC_MESSAGES[0]!), model, { newId: () => 'fresh-1' });
    expect(first).toMatchObject({ clusterId: 'fresh-1', created: true });
    expect(first.similarity).toBeLessThan(DEFAULT_ASSIGN_THRESHOLD);
    expect(first.model.clusters).toHaveLength(model.clusters.length + 1);
    const second = assign(issue('x3', NEW_TOPIC_MESSAGES[1]!), first.model, { newId: () => 'fresh-2' });
    expect(second).toMatchObject({ clusterId: 'fresh-1', created: false });
  });

  it("places later issues of known topics in their topic's cluster", () => {
    let current = model;
    let placed = 0;
    let topical = 0;
    for (const { issue: later, topic } of issuesOf(laterConversations())) {
      const result = assign(later, current, { newId: () => `n-${later.id}` });
      current = result.model;
      if (topic === 'noise') {
        expect(result.created).toBe(true); // nothing in a greeting to join on
        continue;
      }
      topical++;
      const members = clusters.find((c) => c.id === result.clusterId)?.members ?? [];
      if (members.filter((m) => topicOf.get(m) === topic).length * 2 > members.length) placed++;
    }
    // Measured: every one of them (48 of 48).
    expect(placed).toBe(topical);
  });

  it("recomputes a cluster's fields from its members in the batch's vocabulary", () => {
    const target = clusterOfTopic('dark-mode');
    const byId = new Map(labelled.map((l) => [l.issue.id, l.issue]));
    const members = [
      ...target.members.map((id) => byId.get(id)!),
      issue('x4', 'Dark mode for the editor please'),
    ];
    const described = describeMembers(target.id, members.reverse(), model.vocabulary, NOW);
    expect(described.issues).toBe(target.issues + 1);
    expect(described.members).toEqual([...target.members, 'x4'].sort());
    expect(described.weeklyPulse.at(-1)).toBe(target.weeklyPulse.at(-1)! + 1);
    expect(described.sources.email).toBe((target.sources.email ?? 0) + 1);
    expect(described.summary).toMatch(/\d+ issues from \d+ conversations$/);
  });
});
