import { useId } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { MarkerResult } from '../../core/schemas/analyses';

const formatLog = (value: number) => value.toFixed(2);

/** The evaluated markers with their log10 LR; markers not evaluated have no bar. */
export function chartPoints(markers: readonly MarkerResult[]): { marker: string; log10: number }[] {
  return markers.flatMap((m) => (m.log10 === null || !Number.isFinite(m.log10) ? [] : [{ marker: m.marker, log10: m.log10 }]));
}

/** "13 markers; strongest D18S51 (log10 1.23); 1 marker against (TH01)": what a screen reader hears instead of the bars. */
export function log10Summary(markers: readonly MarkerResult[]): string {
  const points = chartPoints(markers);
  if (points.length === 0) return 'No marker was evaluated';
  const top = points.reduce((best, p) => (p.log10 > best.log10 ? p : best));
  const against = points.filter((p) => p.log10 < 0).map((p) => p.marker);
  const base = `${points.length} marker${points.length === 1 ? '' : 's'}; strongest ${top.marker} (log10 ${formatLog(top.log10)})`;
  return against.length === 0 ? base : `${base}; ${against.length} against (${against.join(', ')})`;
}

/** Per-marker log10 LR (issue 5): bars above zero support the analysis's relationship, below zero speak against it. */
export function Log10Chart({ markers, title }: { markers: readonly MarkerResult[]; title: string }) {
  const id = useId();
  const points = chartPoints(markers);
  return (
    <figure className="log10-chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="log10-chart__caption">
        {title}: {log10Summary(markers)}
      </figcaption>
      {points.length > 0 ? (
        <div aria-hidden="true">
          <BarChart width={Math.max(320, points.length * 36)} height={200} data={points} margin={{ top: 8, right: 8, bottom: 40, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="marker" angle={-45} textAnchor="end" interval={0} tick={{ fontSize: 11 }} />
            <YAxis width={44} tick={{ fontSize: 11 }} tickFormatter={formatLog} />
            <ReferenceLine y={0} stroke="var(--color-text)" />
            <Tooltip formatter={(value) => formatLog(Number(value))} />
            <Bar dataKey="log10" isAnimationActive={false}>
              {points.map((p) => (
                <Cell key={p.marker} fill={p.log10 < 0 ? 'var(--color-negative)' : 'var(--color-accent)'} />
              ))}
            </Bar>
          </BarChart>
        </div>
      ) : null}
    </figure>
  );
}
