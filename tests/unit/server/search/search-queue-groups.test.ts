import { describe, expect, it } from 'vitest';
import { groupSize } from '../../../../server/search/search-queue';

// Issue 29: approvals go to the search threads in groups, each loop taking its share of what waits (the thread table of
// `npm run bench` sends its searches in the same groups).
describe('the approval queue’s groups', () => {
  it('gives each loop not searching an even share of the waiting searches, the taking loop among them', () => {
    // Two loops start on 40 waiting approvals: the first takes half, the second the rest.
    expect(groupSize(40, 2)).toBe(20);
    expect(groupSize(20, 1)).toBe(20);
    // An odd count: the first loop takes the larger half.
    expect(groupSize(3, 2)).toBe(2);
    expect(groupSize(1, 1)).toBe(1);
  });

  it('sends at most 100 searches as one task, however many wait', () => {
    expect(groupSize(1_000, 2)).toBe(100);
    expect(groupSize(250, 1)).toBe(100);
  });

  it('takes the whole share when every other loop is searching (none counted idle)', () => {
    expect(groupSize(7, 0)).toBe(7);
  });
});
