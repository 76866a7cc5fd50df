import type { Content } from 'pdfmake/interfaces';
import type { ContinuousLrResult } from '../../core/schemas/continuous';

type Validation = NonNullable<ContinuousLrResult['hypotheses'][number]['validation']>;

const AXIS = '#444';
const GRID = '#ccc';
/** Replicates' bars, darkest first; expected heights under Hp and Hd. */
const REPLICATE_SHADES = ['#555', '#888', '#aaa', '#c4c4c4'];
export const HP_COLOUR = '#1f5fa8';
export const HD_COLOUR = '#b3261e';

/**
 * The PP-plot of a fit (EuroForMix `validMLEmodel`): each observed height's cumulative probability under the fitted
 * model, sorted, against the uniform quantile i / (n + 1); points on the diagonal mean the model explains the heights.
 */
export function ppPlot(validation: Validation, size: number, colour: string): Content {
  const u = validation.peaks.map((p) => p.cumulative).sort((a, b) => a - b);
  const n = u.length;
  const at = (x: number, y: number) => ({ x: x * size, y: (1 - y) * size });
  const ticks = [0.25, 0.5, 0.75].flatMap((v) => [
    { type: 'line' as const, x1: v * size, y1: 0, x2: v * size, y2: size, lineWidth: 0.3, lineColor: GRID },
    { type: 'line' as const, x1: 0, y1: (1 - v) * size, x2: size, y2: (1 - v) * size, lineWidth: 0.3, lineColor: GRID },
  ]);
  const points = u.map((c, i) => {
    const { x, y } = at((i + 1) / (n + 1), c);
    return { type: 'ellipse' as const, x, y, r1: 1.6, r2: 1.6, color: colour };
  });
  return {
    canvas: [
      ...ticks,
      { type: 'rect', x: 0, y: 0, w: size, h: size, lineWidth: 0.6, lineColor: AXIS },
      { type: 'line', x1: 0, y1: size, x2: size, y2: 0, lineWidth: 0.6, lineColor: AXIS, dash: { length: 3 } },
      ...points,
    ],
  };
}

/** The positions an electropherogram shows: the alleles and stutter positions of the marker, Q (no peak of its own) left out, in repeat order. */
function chartPositions(rows: Validation['expected'], marker: string): Validation['expected'] {
  return rows.filter((r) => r.marker === marker && r.allele !== 'Q').sort((a, b) => Number(a.allele) - Number(b.allele) || a.allele.localeCompare(b.allele));
}

/**
 * One marker as an electropherogram (issue 31): per allele position the observed height of each replicate as bars,
 * the expected height under Hp and under Hd as ticks across the group, the analytical threshold dashed.
 */
export function epgChart(marker: string, hp: Validation | null, hd: Validation | null, threshold: number, width: number, height: number): Content {
  const rows = chartPositions((hd ?? hp)!.expected, marker);
  const expected = (v: Validation | null) => new Map(v ? chartPositions(v.expected, marker).map((r) => [r.allele, r.expected]) : []);
  const hpExpected = expected(hp);
  const hdExpected = expected(hd);
  const top = Math.max(threshold, ...rows.flatMap((r) => [...r.observed.map((o) => o ?? 0), hpExpected.get(r.allele) ?? 0, hdExpected.get(r.allele) ?? 0])) * 1.1;
  const y = (h: number) => height - (h / top) * height;
  const group = width / Math.max(rows.length, 1);
  const replicates = rows[0]?.observed.length ?? 1;
  const bar = (group * 0.6) / replicates;
  const shapes = rows.flatMap((r, i) => {
    const left = i * group + group * 0.2;
    const bars = r.observed.flatMap((o, k) => (o === null ? [] : [{ type: 'rect' as const, x: left + k * bar, y: y(o), w: bar * 0.9, h: height - y(o), color: REPLICATE_SHADES[k % REPLICATE_SHADES.length]! }]));
    const tick = (value: number | undefined, colour: string) => (value === undefined || value < 0.5 ? [] : [{ type: 'line' as const, x1: i * group + group * 0.1, y1: y(value), x2: i * group + group * 0.9, y2: y(value), lineWidth: 1.4, lineColor: colour }]);
    return [...bars, ...tick(hpExpected.get(r.allele), HP_COLOUR), ...tick(hdExpected.get(r.allele), HD_COLOUR)];
  });
  return {
    stack: [
      { text: `${marker}  (scale 0–${Math.round(top)} RFU)`, fontSize: 7, bold: true },
      {
        canvas: [
          { type: 'line', x1: 0, y1: height, x2: width, y2: height, lineWidth: 0.6, lineColor: AXIS },
          { type: 'line', x1: 0, y1: 0, x2: 0, y2: height, lineWidth: 0.6, lineColor: AXIS },
          ...shapes,
          { type: 'line', x1: 0, y1: y(threshold), x2: width, y2: y(threshold), lineWidth: 0.6, lineColor: '#2e7d32', dash: { length: 2 } },
        ],
      },
      { columns: rows.map((r) => ({ text: r.allele, width: group, alignment: 'center', fontSize: 6 })), columnGap: 0 },
    ],
    unbreakable: true,
  };
}
