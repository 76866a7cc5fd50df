/**
 * The distribution of Σ log10 LR held as its two roundings on the grid (chance-hits.ts lrDistribution), and the
 * answers read from them. The grid is plain data: a search thread that computed it sends it, and the threads that
 * read it rebuild the same answers, bit for bit (issue 29: a keyboard search's chance figures, keyboard-chance.ts).
 */

/** A bracket on P(S ≥ t): the grid rounded down gives `lower`, rounded up `upper`; the exact value lies between. */
export interface LrTail {
  lower: number;
  upper: number;
}

/** The distribution of S = Σ log10 LR over independent markers for an unrelated candidate, on a log10 grid (GENETICS.md "Expected chance hits"; Tippett et al. 1968). */
export interface LrDistribution {
  /** Grid width in log10 units: the bracket of `tail` is at most one step per marker wide in S. */
  readonly step: number;
  /** P(LR = 0): some marker's factor is 0, or too many markers are inconsistent. This mass never reaches a finite threshold. */
  readonly zeroProbability: number;
  /**
   * The reachable finite sums on the grid (log10), from the rounded-down minimum (at or below it both
   * tail bounds hold every finite sum) to the rounded-up maximum (above it both are 0).
   */
  readonly range: { readonly min: number; readonly max: number };
  /** P(S ≥ t) bracketed: lower ≤ exact ≤ upper (t = −Infinity counts the LR-0 mass too and gives 1). */
  tail(log10Threshold: number): LrTail;
  /**
   * The smallest grid threshold t (log10) whose UPPER tail is ≤ maxProbability, so at most that many
   * chance hits per profile searched are let through (maxProbability = E/N for E expected hits in N
   * profiles). −Infinity when maxProbability ≥ P(any LR, 0 included) = 1; the rounded-up grid's
   * minimum (≥ range.min) when every finite sum qualifies.
   */
  thresholdFor(maxProbability: number): number;
  /** The grid itself, to send to another thread ({@link distributionOnGrid} rebuilds the distribution there). */
  readonly grid: DistributionGrid;
}

/**
 * Values within this many grid cells of a grid point are taken as on it, so floating-point noise in a
 * log10 (log10(1000) = 2.9999999999999996) does not move a whole cell: at the default step 0.01 this
 * is 1e-11 log10 units, far below any reported precision.
 */
export const GRID_SLACK = 1e-9;

/** One rounding of the sum: cell probabilities from `offset` (grid index of cell 0) and their suffix sums. */
export interface GridSum {
  offset: number;
  /** Mass dropped because it could no longer reach the `from` threshold (LrDistributionOptions). */
  dropped: number;
  /** suffix[i] = Σ cells[i…]; suffix[cells] = 0. Summed from the top, so small tails keep their relative precision. */
  suffix: Float64Array;
}

/** What a distribution is made of: the grid step, the lowest tail asked for, the total mass, and the two roundings. */
export interface DistributionGrid {
  step: number;
  from: number;
  total: number;
  lower: GridSum;
  upper: GridSum;
}

/** P(cell index ≥ j) of one rounding. */
function suffixAt(sum: GridSum, j: number): number {
  const i = j - sum.offset;
  if (i <= 0) return sum.suffix[0]!;
  if (i >= sum.suffix.length) return 0;
  return sum.suffix[i]!;
}

/** The distribution on a grid (Tippett et al. 1968; Taylor et al. 2016): its tails and thresholds read from the roundings' suffix sums. */
export function distributionOnGrid(grid: DistributionGrid): LrDistribution {
  const { step, from, total, lower, upper } = grid;
  return {
    grid,
    step,
    zeroProbability: Math.max(0, total - lower.suffix[0]! - lower.dropped),
    range: { min: lower.offset * step, max: (upper.offset + upper.suffix.length - 2) * step },
    tail(t) {
      if (Number.isNaN(t)) throw new RangeError('a threshold cannot be NaN');
      if (t === Infinity) return { lower: 0, upper: 0 };
      if (t < from) throw new RangeError(`this distribution answers tails from log10 ${from} up, not at ${t}`);
      if (t === -Infinity) return { lower: total, upper: total };
      const j = Math.ceil(t / step - GRID_SLACK);
      return { lower: suffixAt(lower, j), upper: suffixAt(upper, j) };
    },
    thresholdFor(maxProbability) {
      if (!(maxProbability >= 0)) throw new RangeError(`a probability must be ≥ 0, not ${maxProbability}`);
      if (maxProbability >= total) return from;
      // suffix is non-increasing and ends in 0: the first index at or under maxProbability.
      let a = 0;
      let b = upper.suffix.length - 1;
      while (a < b) {
        const mid = (a + b) >> 1;
        if (upper.suffix[mid]! <= maxProbability) b = mid;
        else a = mid + 1;
      }
      return Math.max(from, (upper.offset + a) * step);
    },
  };
}
