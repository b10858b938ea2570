import { describe, expect, it } from 'vitest';
import { TimeSlices } from '../../src/time-slices.js';

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
});
