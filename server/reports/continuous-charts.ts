import type { CanvasElement, Content } from 'pdfmake/interfaces';
import { ppPlot as ppPlotOf } from '../../core/continuous/pp-plot';
import type { ContinuousLrResult } from '../../core/schemas/continuous';

type Validation = NonNullable<ContinuousLrResult['hypotheses'][number]['validation']>;

const AXIS = '#444';
const GRID = '#ccc';
/** Replicates' bars, darkest first; expected heights under Hp and Hd. */
const REPLICATE_SHADES = ['#555', '#888', '#aaa', '#c4c4c4'];
export const HP_COLOUR = '#1f5fa8';
export const HD_COLOUR = '#b3261e';

/** Room left of a PP-plot's frame for the vertical tick labels. */
export const PP_LEFT = 24;
const PP_TICKS = [0, 0.25, 0.5, 0.75, 1];
const TICK_FONT = 6;
/** A tick label's line at TICK_FONT (DejaVu Sans: ascender − descender ≈ 1.164 em). */
const TICK_LINE = TICK_FONT * 1.164;
const BAND = '#e3e3e3';
const OUTSIDE = '#e07b00';

/**
 * The PP-plot of a fit as the screen draws it (core/continuous/pp-plot.ts, EuroForMix `validMLEmodel`): each observed
 * height's cumulative probability, sorted, against the uniform quantile; the 1 − α envelope shaded and the Bonferroni
 * (α/N) one dotted, the diagonal, tick labels 0–1 on both axes; a point outside the Bonferroni envelope in orange.
 */
export function ppPlot(validation: Validation, size: number, colour: string): Content {
  const plot = ppPlotOf(validation.peaks);
  const px = (x: number) => x * size;
  const py = (y: number) => (1 - y) * size;
  const [band, bonferroni] = plot.envelopes;
  const path = (lines: { expected: number; v: number }[]) => lines.map((l) => ({ x: px(l.expected), y: py(l.v) }));
  const shapes: CanvasElement[] = [];
  if (band) shapes.push({ type: 'polyline', closePath: true, color: BAND, lineColor: BAND, lineWidth: 0.1, points: [...path(band.lines.map((l) => ({ expected: l.expected, v: l.lower }))), ...path([...band.lines].reverse().map((l) => ({ expected: l.expected, v: l.upper })))] });
  for (const v of [0.25, 0.5, 0.75]) shapes.push({ type: 'line', x1: px(v), y1: 0, x2: px(v), y2: size, lineWidth: 0.3, lineColor: GRID }, { type: 'line', x1: 0, y1: py(v), x2: size, y2: py(v), lineWidth: 0.3, lineColor: GRID });
  if (bonferroni) for (const side of ['lower', 'upper'] as const) shapes.push({ type: 'polyline', lineWidth: 0.6, lineColor: AXIS, dash: { length: 1.5, space: 1.5 }, points: path(bonferroni.lines.map((l) => ({ expected: l.expected, v: l[side] }))) });
  shapes.push({ type: 'rect', x: 0, y: 0, w: size, h: size, lineWidth: 0.6, lineColor: AXIS }, { type: 'line', x1: 0, y1: size, x2: size, y2: 0, lineWidth: 0.6, lineColor: AXIS, dash: { length: 3 } });
  for (const p of plot.points) shapes.push({ type: 'ellipse', x: px(p.expected), y: py(p.cumulative), r1: 1.6, r2: 1.6, color: p.outside ? OUTSIDE : colour });
  // A canvas holds no text: the vertical labels stack beside it, a quarter of the frame apart, each centred on its line.
  const vertical = [...PP_TICKS].reverse().map((t, i) => ({ text: String(t), fontSize: TICK_FONT, alignment: 'right' as const, margin: [0, i === 0 ? -TICK_LINE / 2 : size / 4 - TICK_LINE, 3, 0] as [number, number, number, number] }));
  // The horizontal ones in columns a quarter wide, each centred on its tick.
  const horizontal = [{ width: PP_LEFT - size / 8, text: '' }, ...PP_TICKS.map((t) => ({ width: size / 4, text: String(t), fontSize: TICK_FONT, alignment: 'center' as const }))];
  return {
    stack: [
      { columns: [{ width: PP_LEFT, stack: vertical }, { width: size, canvas: shapes }], columnGap: 0 },
      { columns: horizontal, columnGap: 0, margin: [0, 1, 0, 0] },
      { text: 'Horizontal: expected (uniform); vertical: observed cumulative probability', fontSize: TICK_FONT, margin: [PP_LEFT, 2, 0, 0] },
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
