import { describe, expect, it } from 'vitest';
import { analyze, countsText, type Issue, PULSE_WEEKS, weeklyPulse } from '../../src/conversations/index.js';

const now = new Date('2025-06-02T12:00:00.000Z');
const DAY = 24 * 3600 * 1000;
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

describe('weekly pulse', () => {
  it('counts 13 weeks ending at the injected now, oldest first', () => {
    const pulse = weeklyPulse(
      [
        ago(0), // this week
        ago(6 * DAY), // this week
        ago(7 * DAY), // exactly a week ago: the week before
        ago(7 * DAY + 1),
        ago(13 * 7 * DAY - 1), // the oldest week's first millisecond
        ago(13 * 7 * DAY), // 13 weeks ago: outside
        ago(200 * DAY), // long ago: outside
        ago(-3600 * 1000), // an hour ahead of our clock: this week
        'not a date',
      ],
      now,
    );
    expect(pulse).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3]);
    expect(pulse).toHaveLength(PULSE_WEEKS);
  });

  it('moves with the clock, not with the calendar', () => {
    const dates = [ago(10 * DAY)];
    expect(weeklyPulse(dates, now)[11]).toBe(1);
    // A week later the same issue is two weeks back; 13 weeks later it is gone.
    expect(weeklyPulse(dates, new Date(now.getTime() + 7 * DAY))[10]).toBe(1);
    expect(weeklyPulse(dates, new Date(now.getTime() + 13 * 7 * DAY)).every((n) => n === 0)).toBe(true);
  });

  it("is every cluster's weeklyPulse, counted from its issues' dates", () => {
    const issue = (id: string, createdAt: string, conversation = id): Issue => ({
      id,
      conversation,
      source: 'email',
      title: 'Dark mode for the editor',
      summary: 'Please add a dark mode to the editor.',
      createdAt,
    });
    const { clusters } = analyze(
      [issue('a', ago(DAY)), issue('b', ago(20 * DAY)), issue('c', ago(100 * DAY), 'a')],
      { newId: () => 'only', now },
    );
    expect(clusters).toHaveLength(1);
    expect(clusters[0]!.weeklyPulse).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1]); // 100 days ago: outside
    expect(clusters[0]).toMatchObject({ issues: 3, conversations: 2, sources: { email: 3 } });
    expect(clusters[0]!.summary).toBe(
      `Please add a dark mode to the editor.\n\n3 issues from 2 conversations`,
    );
    expect(countsText(1, 1)).toBe('1 issue from 1 conversation');
  });
});
