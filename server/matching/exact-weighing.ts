import type { WeighedSlots } from './placement-pass';

/**
 * Per slot of a stretch: the lanes it reached so far, and the last lane that counted it; every slot counted is reset
 * before a call returns. Reused by every search of the thread: two arrays of a stretch's length made per search (64 KB
 * each, zeroed and filled) cost as much as the verdicts themselves.
 */
let lanesReached = new Uint16Array(0);
let lastLane = new Int16Array(0);

/**
 * The exact verdict of the quantitative search's candidates, a stretch of slots at a time (placement-pass.ts): lanes
 * (populations) of placements, each placement's exact sums given for only the slots its bound let through (a slot it
 * did not let through cannot reach its cut); a slot is kept when some placement of every lane reaches that lane's cut
 * over at least minMarkers markers. The sums are scoreAt's, in its order, so the verdict is the one-by-one verdict.
 */
export class ExactWeighing {
  constructor(
    /** How many placements each lane has, in the order byPlacement lists them. */
    private readonly lanes: readonly number[],
    private readonly cuts: readonly number[],
    private readonly minMarkers: number,
  ) {}

  /** The slots of the stretch from `from` that reach every lane, in slot order; byPlacement lists the lanes' placements in order. */
  reachedEveryLane(byPlacement: readonly WeighedSlots[], from: number): number[] {
    let span = 0;
    for (const { slots } of byPlacement) if (slots.length > 0) span = Math.max(span, slots[slots.length - 1]! - from + 1);
    if (lanesReached.length < span) [lanesReached, lastLane] = [new Uint16Array(span), new Int16Array(span).fill(-1)];
    // The arrays, fields and the lane's cut in locals, plain loops: this runs for every candidate of every stretch.
    const reached = lanesReached;
    const last = lastLane;
    const { minMarkers } = this;
    const touched: number[] = [];
    let p = 0;
    for (let l = 0; l < this.lanes.length; l++) {
      const cut = this.cuts[l]!;
      for (let j = 0; j < this.lanes[l]!; j++) {
        const { slots, log10, markerCount } = byPlacement[p++]!;
        const n = slots.length;
        for (let i = 0; i < n; i++) {
          if (log10[i]! < cut || markerCount[i]! < minMarkers) continue;
          const at = slots[i]! - from;
          const before = last[at]!;
          if (before === l) continue;
          if (before === -1) touched.push(at);
          last[at] = l;
          reached[at]!++;
        }
      }
    }
    const kept: number[] = [];
    for (const at of touched.sort((a, b) => a - b)) {
      if (reached[at] === this.lanes.length) kept.push(from + at);
      reached[at] = 0;
      last[at] = -1;
    }
    return kept;
  }
}
