import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { Stats } from '../../core/schemas/stats';
import { seriesLabel } from './series-label';

// One colour per series position, from the theme's palette.
const COLOURS = ['var(--color-accent)', 'var(--color-positive)', 'var(--color-negative)', 'var(--color-warning)', 'var(--color-ongoing)'];

/** The bars of one statistic (a row per group, a bar per series); loaded on its own (stats-chart.tsx). */
export function StatsBars({ stats, width, height }: { stats: Stats; width: number; height: number }) {
  const data = stats.rows.map((row) => ({ label: row.label, ...row.counts }));
  return (
    // No keyboard layer: the bars are hidden from assistive technology (the figure's table reads them), so nothing in them may take focus (axe aria-hidden-focus).
    <BarChart width={width} height={height} data={data} margin={{ top: 4, right: 4, bottom: 4, left: 0 }} accessibilityLayer={false}>
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="label" tick={{ fontSize: 11 }} />
      <YAxis width={36} tick={{ fontSize: 11 }} allowDecimals={false} />
      <Tooltip />
      <Legend formatter={(value) => seriesLabel(String(value))} />
      {stats.series.map((series, i) => (
        <Bar key={series} dataKey={series} name={series} fill={COLOURS[i % COLOURS.length]} isAnimationActive={false} />
      ))}
    </BarChart>
  );
}
