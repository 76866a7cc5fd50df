import { afterAll, describe, expect, it } from 'vitest';
import { floorAtATime, floorReads, floorSlices } from '../../../bench/floor-threads';
import floorPasses from '../../../bench/floor-worker';
import { SimdFloor } from '../../../bench/simd-floor';
import { closeWorkerPools } from '../../../server/jobs/worker-pool';
import { ProfileIndex } from '../../../server/matching/profile-index';

afterAll(closeWorkerPools);

/** A small index: 3,001 profiles on three markers (an odd size, so the copy ends inside a 64-byte round). */
function smallIndex(): ProfileIndex {
  const index = new ProfileIndex('kit', 'Autosomal');
  const alleles = ['8', '9', '10', '11', '12', '13', '14'];
  for (let i = 0; i < 3_001; i++) {
    const pick = (k: number) => alleles[(i * (k + 3) + k) % alleles.length]!;
    index.upsert(`P${i}`, new Map([['D3S1358', [pick(0), pick(1)]], ['vWA', [pick(2), pick(3)]], ['FGA', [pick(4)]]]), { organizationId: 'org', sampleType: 'Convicted Offender' });
  }
  return index;
}

/** What a pass folds: lane 0 of the four accumulators, i.e. the bytes at every 16th offset of the copy, modulo 256. */
function expectedFold(index: ProfileIndex): number {
  const n = index.size;
  const copy = index.markerColumns().flatMap(({ lo, hi }) => [...lo.subarray(0, n), ...hi.subarray(0, n)]);
  let sum = 0;
  for (let at = 0; at < copy.length; at += 16) sum = (sum + copy[at]!) & 0xff;
  return sum;
}

describe('the SIMD floor', () => {
  it('reads every byte of the copied columns once a pass, in this thread and in a thread given its shared memory', () => {
    const index = smallIndex();
    const floor = new SimdFloor();
    floor.load(index);
    const fold = expectedFold(index);
    expect(fold).not.toBe(0);
    expect(floor.pass()).toBe(fold);
    // A thread's passes over the same memory fold the same bytes: its first, untimed pass and one timed pass.
    const { memory, length } = floor.bytes;
    expect(floorPasses({ memory, from: 0, length, passes: 1, arrived: new Int32Array(new SharedArrayBuffer(4)), threads: 1 }).sum).toBe((2 * fold) & 0xff);
  });

  it('runs its passes on two threads at once over one copy, whole or split in halves, and gives the time a pass', async () => {
    const floor = new SimdFloor();
    floor.load(smallIndex());
    // Each thread waits for the other before it starts: a thread that never came would hold the first for ever.
    for (const split of [false, true]) {
      const perPass = await floorAtATime(floor, 2, 4, split);
      expect(perPass).toBeGreaterThan(0);
      expect(Number.isFinite(perPass)).toBe(true);
    }
  });

  it('splits a pass into slices that fold, together, every byte of the copy once', () => {
    const index = smallIndex();
    const floor = new SimdFloor();
    floor.load(index);
    const { memory, length } = floor.bytes;
    // The halves floorAtATime gives its two threads: adjacent, on 64-byte bounds, covering the copy.
    const halves = floorSlices(length, 2);
    expect(halves[0]!.from).toBe(0);
    expect(halves[1]!.from).toBe(halves[0]!.length);
    expect(halves[1]!.from % 64).toBe(0);
    expect(halves[0]!.length + halves[1]!.length).toBe(length);
    const fold = ({ from, length: bytes }: { from: number; length: number }) => floorPasses({ memory, from, length: bytes, passes: 0, arrived: new Int32Array(new SharedArrayBuffer(4)), threads: 1 }).sum;
    expect((fold(halves[0]!) + fold(halves[1]!)) & 0xff).toBe(expectedFold(index));
  });

  it('reads every byte once a pass when a whole pass begins inside the copy, as the second of two passes at a time does', () => {
    const index = smallIndex();
    const floor = new SimdFloor();
    floor.load(index);
    const { memory, length } = floor.bytes;
    // Two whole passes at a time: every byte each, the second begun where the second half begins.
    const reads = floorReads(length, 2, false);
    expect(reads).toEqual([
      { from: 0, length, start: 0 },
      { from: 0, length, start: floorSlices(length, 2)[1]!.from },
    ]);
    expect(reads[1]!.start).toBeGreaterThan(0);
    const { sum } = floorPasses({ memory, ...reads[1]!, passes: 1, arrived: new Int32Array(new SharedArrayBuffer(4)), threads: 1 });
    expect(sum).toBe((2 * expectedFold(index)) & 0xff);
  });
});
