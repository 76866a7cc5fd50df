import { useId } from 'react';
import { ppPlot, type PeakCumulative } from '../../core/continuous/pp-plot';

const SIZE = 290;
const TOP = 8;
// Room for the vertical axis's title beside its tick labels.
const LEFT = 46;
const INNER = SIZE - LEFT - 8;
const x = (p: number) => LEFT + p * INNER;
const y = (p: number) => TOP + INNER - p * INNER;
const TICKS = [0, 0.25, 0.5, 0.75, 1];

/**
 * The PP-plot of a fit (EuroForMix validMLEmodel), drawn as SVG: each observed height's cumulative probability under
 * the model against the uniform order statistic, the diagonal, the envelope at α = 0.01 (shaded) and at α/N
 * (Bonferroni, dashed); a point outside the Bonferroni envelope is marked. Uniform points near the diagonal mean a good fit.
 */
export function PpPlotChart({ peaks, title }: { peaks: readonly PeakCumulative[]; title: string }) {
  const id = useId();
  const plot = ppPlot(peaks);
  const n = plot.points.length;
  const [band, bonferroni] = plot.envelopes;
  const line = (pts: { expected: number; v: number }[]) => pts.map((p) => `${x(p.expected).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
  const summary = `${n} peak height${n === 1 ? '' : 's'}; ${plot.outside === 0 ? 'none' : plot.outside} outside the Bonferroni envelope (α = 0.01/${n})`;
  return (
    <figure className="pp-plot" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="log10-chart__caption">
        {title}: {summary}
      </figcaption>
      <svg className="pp-plot__svg" viewBox={`0 0 ${SIZE} ${SIZE}`} width={SIZE} height={SIZE} role="img" aria-label={`${title}: ${summary}`}>
        <rect x={x(0)} y={y(1)} width={INNER} height={INNER} className="pp-plot__frame" />
        {band ? <polygon className="pp-plot__band" points={`${line(band.lines.map((l) => ({ expected: l.expected, v: l.lower })))} ${line([...band.lines].reverse().map((l) => ({ expected: l.expected, v: l.upper })))}`} /> : null}
        {bonferroni ? (
          <>
            <polyline className="pp-plot__bonferroni" points={line(bonferroni.lines.map((l) => ({ expected: l.expected, v: l.lower })))} />
            <polyline className="pp-plot__bonferroni" points={line(bonferroni.lines.map((l) => ({ expected: l.expected, v: l.upper })))} />
          </>
        ) : null}
        <line className="pp-plot__diagonal" x1={x(0)} y1={y(0)} x2={x(1)} y2={y(1)} />
        {TICKS.map((t) => (
          <g key={t} className="pp-plot__tick">
            <text x={x(t)} y={y(0) + 14} textAnchor="middle">
              {t}
            </text>
            <text x={LEFT - 6} y={y(t) + 4} textAnchor="end">
              {t}
            </text>
          </g>
        ))}
        <text className="pp-plot__axis" x={x(0.5)} y={y(0) + 28} textAnchor="middle">
          Expected (uniform)
        </text>
        <text className="pp-plot__axis" x={10} y={y(0.5)} textAnchor="middle" transform={`rotate(-90 10 ${y(0.5)})`}>
          Observed cumulative probability
        </text>
        {plot.points.map((p) => (
          <circle key={`${p.marker}-${p.replicate}-${p.allele}`} className={`pp-plot__point${p.outside ? ' pp-plot__point--outside' : ''}`} cx={x(p.expected)} cy={y(p.cumulative)} r={3.5}>
            <title>{`${p.marker} ${p.allele} (replicate ${p.replicate}): ${p.height} RFU, cumulative ${p.cumulative.toFixed(3)}${p.outside ? ', outside the envelope' : ''}`}</title>
          </circle>
        ))}
      </svg>
    </figure>
  );
}
