import { describe, expect, it } from 'vitest';
import { giveWay, TimeSlices } from '../../src/time-slices.js';

describe('TimeSlices', () => {
  it('is not due within its slice', () => {
    expect(new TimeSlices(60_000).due()).toBe(false);
  });

  it('is due once its slice is over, and its next slice begins after a turn of the event loop', async () => {
    const slices = new TimeSlices(0);
    expect(slices.due()).toBe(true);
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    await slices.next();
    expect(turned).toBe(true);
  });

  it('starts a new slice after each turn', async () => {
    const slices = new TimeSlices(60_000);
    await slices.next();
    expect(slices.due()).toBe(false);
  });

  it('gives way to what was queued for the end of the turn after its own turn began', async () => {
    const slices = new TimeSlices(0);
    const order: string[] = [];
    const work = (async () => {
      await slices.next();
      order.push('next slice');
    })();
    // As a request read in the next poll phase: queued after the slice's own setImmediate.
    setImmediate(() => order.push('request'));
    await work;
    expect(order).toEqual(['request', 'next slice']);
  });
});

describe('giveWay', () => {
  it('resumes after the immediates queued behind its own', async () => {
    const order: string[] = [];
    const caller = (async () => {
      await giveWay();
      order.push('caller');
    })();
    setImmediate(() => order.push('request'));
    await caller;
    expect(order).toEqual(['request', 'caller']);
  });
});
