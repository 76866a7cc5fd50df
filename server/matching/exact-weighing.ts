import type { WeighedSlots } from './placement-pass';

/**
 * The exact verdict of the quantitative search's candidates, a stretch of slots at a time (placement-pass.ts): lanes
 * (populations) of placements, each placement's exact sums given for only the slots its bound let through (a slot it
 * did not let through cannot reach its cut); a slot is kept when some placement of every lane reaches that lane's cut
 * over at least minMarkers markers. The sums are scoreAt's, in its order, so the verdict is the one-by-one verdict.
 */
export class ExactWeighing {
  /** Per slot of the stretch: the lanes it reached so far, and the last lane that counted it. */
  private lanesReached = new Uint16Array(0);
  private lastLane = new Int16Array(0);

  constructor(
    /** How many placements each lane has, in the order byPlacement lists them. */
    private readonly lanes: readonly number[],
    private readonly cuts: readonly number[],
    private readonly minMarkers: number,
  ) {}

  /** The slots of the stretch from `from` that reach every lane, in slot order; byPlacement lists the lanes' placements in order. */
  reachedEveryLane(byPlacement: readonly WeighedSlots[], from: number): number[] {
    const span = Math.max(0, ...byPlacement.map(({ slots }) => (slots.length === 0 ? 0 : slots[slots.length - 1]! - from + 1)));
    if (this.lanesReached.length < span) [this.lanesReached, this.lastLane] = [new Uint16Array(span), new Int16Array(span).fill(-1)];
    const touched: number[] = [];
    let p = 0;
    this.lanes.forEach((placements, l) => {
      for (let j = 0; j < placements; j++) {
        const { slots, log10, markerCount } = byPlacement[p++]!;
        for (let i = 0; i < slots.length; i++) {
          if (log10[i]! < this.cuts[l]! || markerCount[i]! < this.minMarkers) continue;
          const at = slots[i]! - from;
          if (this.lastLane[at] === l) continue;
          if (this.lastLane[at] === -1) touched.push(at);
          this.lastLane[at] = l;
          this.lanesReached[at]!++;
        }
      }
    });
    const kept: number[] = [];
    for (const at of touched.sort((a, b) => a - b)) {
      if (this.lanesReached[at] === this.lanes.length) kept.push(from + at);
      this.lanesReached[at] = 0;
      this.lastLane[at] = -1;
    }
    return kept;
  }
}
