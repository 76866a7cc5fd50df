import { MULBERRY32_STEP as step, mulberry32At as at } from '../../../core/seeded-random';
import { alleleAt, layoutColumns, MOST_TRIES, skipMarkers, WANTED, type Lane, type MarkerLayout } from './monte-carlo-lane';

/**
 * simulate for one case (the calculator's call, a one-population search): its own loop, since one lane needs no
 * shared pass. A copy whose allele is already seen in the replicate leaves its survival number unread, and an
 * unknown's allele is drawn only when one of its copies survives somewhere — the same numbers at the same places.
 */
export function simulateOne(layout: readonly MarkerLayout[], observed: number, dropIn: number, lane: Lane, seed: number): number[] {
  const M = layout.length;
  const { unknownsOf, copiesOf, typedOf, typedBaseOf, replicatesOf } = layoutColumns(layout);
  const mostAfter = new Float64Array(M + 1);
  for (let m = M - 1; m >= 0; m--) mostAfter[m] = mostAfter[m + 1]! + layout[m]!.replicates * Math.min(layout[m]!.copies + 1, lane.alleles[m]!);
  const { stamps, codes, typedCodes, kept } = lane;
  const STEP = step;
  const numberAt = at;
  let state = seed >>> 0;
  let stamp = 0;
  while (kept.length < WANTED && lane.tried < MOST_TRIES) {
    lane.tried++;
    state = (state + STEP) >>> 0;
    const d = numberAt(state);
    let count = 0;
    let m = 0;
    let over = false;
    while (m < M) {
      const unknowns = unknownsOf[m]!;
      const copies = copiesOf[m]!;
      const typed = typedOf[m]!;
      const replicates = replicatesOf[m]!;
      const typedBase = typedBaseOf[m]!;
      const stampBase = lane.stampBase[m]!;
      const start = state;
      for (let k = 0; k < typed; k++) codes[k] = typedCodes[typedBase + k]!;
      // −1: an unknown's allele not drawn yet.
      for (let k = typed; k < copies; k++) codes[k] = -1;
      state = (state + Math.imul(2 * unknowns, STEP)) >>> 0;
      for (let r = 0; r < replicates; r++) {
        stamp++;
        for (let k = 0; k < copies; k++) {
          state = (state + STEP) >>> 0;
          let code = codes[k]!;
          if (code >= 0 && stamps[stampBase + code] === stamp) continue;
          if (numberAt(state) < d) continue;
          if (code < 0) code = codes[k] = alleleAt(lane, m, numberAt((start + Math.imul(k - typed + 1, STEP)) >>> 0));
          if (stamps[stampBase + code] !== stamp) {
            stamps[stampBase + code] = stamp;
            count++;
          }
        }
        state = (state + STEP) >>> 0;
        if (numberAt(state) < dropIn) {
          state = (state + STEP) >>> 0;
          const place = stampBase + alleleAt(lane, m, numberAt(state));
          if (stamps[place] !== stamp) {
            stamps[place] = stamp;
            count++;
          }
        }
      }
      m++;
      if (count > observed || count + mostAfter[m]! < observed) {
        over = true;
        break;
      }
    }
    if (!over) {
      if (count === observed) kept.push(d);
      continue;
    }
    state = skipMarkers(layout, m, state, dropIn);
  }
  lane.stamp = stamp;
  return kept;
}
