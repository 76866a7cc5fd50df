import type { ExpectedHeight } from './validation-types';

/** One marker of the electropherogram-style chart: its positions in the answer's order and the analytical threshold. */
export interface EpgMarker {
  marker: string;
  threshold: number;
  positions: { allele: string; observed: (number | null)[]; expected: number }[];
  /** The tallest of the observed heights, the expected heights and the threshold: the chart's top. */
  top: number;
}

/**
 * The EPG chart's markers (EuroForMix's "plotTopEPG" view of a fit): the expected heights μ·Σ Mx·copies (with
 * degradation and stutters) grouped by marker, in the order the markers come, each with its analytical threshold.
 */
export function epgMarkers(expected: readonly ExpectedHeight[], thresholds: ReadonlyMap<string, number>, fallbackThreshold: number): EpgMarker[] {
  const byMarker = new Map<string, EpgMarker>();
  for (const e of expected) {
    let m = byMarker.get(e.marker);
    if (!m) {
      const threshold = thresholds.get(e.marker) ?? fallbackThreshold;
      m = { marker: e.marker, threshold, positions: [], top: threshold };
      byMarker.set(e.marker, m);
    }
    m.positions.push({ allele: e.allele, observed: [...e.observed], expected: e.expected });
    m.top = Math.max(m.top, e.expected, ...e.observed.map((h) => h ?? 0));
  }
  return [...byMarker.values()];
}
