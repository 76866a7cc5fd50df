/** What a listed pass costs against a dense one, per run and marker (`sparse`) and per listed run and stage (`stage`). */
export interface StageCosts {
  sparse: number;
  stage: number;
  /** Dense prefixes considered: multiples of this many markers (the category pass's dense kernel takes two a step). */
  denseStep: number;
}

/**
 * The cheapest plan of a staged pass over `markers` markers (issue 29, 31): a dense prefix of `dense` markers over
 * every run of 16, then stages ending at each of `stages` over the runs still listed, given alive[k] (k = 1 … markers),
 * the share of sampled runs still able to reach the need after the first k markers. A dense marker costs 1 a run; a
 * stage from k to j costs alive[k]·(sparse·(j − k) + stage). `dense` is `markers` (no stage) when listing would not pay.
 */
export function cheapestStages(markers: number, alive: Float64Array, costs: StageCosts): { dense: number; stages: number[] } {
  // best[k]: the least cost of the stages after a stage (or the dense prefix) that ended at k, to the end.
  const best = new Float64Array(markers + 1);
  const next = new Int32Array(markers + 1);
  for (let k = markers - 1; k >= 1; k--) {
    best[k] = Infinity;
    for (let j = k + 1; j <= markers; j++) {
      const cost = alive[k]! * (costs.sparse * (j - k) + costs.stage) + best[j]!;
      if (cost < best[k]!) [best[k], next[k]] = [cost, j];
    }
  }
  let dense = markers;
  let least = markers;
  for (let d = costs.denseStep; d < markers; d += costs.denseStep) if (d + best[d]! < least) [least, dense] = [d + best[d]!, d];
  const stages: number[] = [];
  for (let k = dense; k < markers; k = next[k]!) stages.push(next[k]!);
  return { dense, stages };
}

/** The largest entry of a byte table (0 when empty): a marker's best bound. */
export function largest(table: Uint8Array): number {
  let top = 0;
  for (let i = 0; i < table.length; i++) if (table[i]! > top) top = table[i]!;
  return top;
}
