import { useId } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { Stats } from '../../core/schemas/stats';

/** A series' words: statuses come as `in-progress`, `pending`; people read "In progress", "Pending". */
export const seriesLabel = (series: string): string => {
  const words = series.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

// One colour per series position, from the theme's palette.
const COLOURS = ['var(--color-accent)', 'var(--color-positive)', 'var(--color-negative)', 'var(--color-warning)', 'var(--color-ongoing)'];

/** "Profiles by kind and status: 4 in all": what a screen reader hears before the table. */
export function statsSummary(stats: Stats): string {
  const total = stats.rows.reduce((sum, row) => sum + Object.values(row.counts).reduce((a, b) => a + b, 0), 0);
  return `${stats.title}: ${total} in all`;
}

/**
 * One statistic as grouped bars (a row per group, a bar per series). Fixed size, like the allele
 * chart; the bars are hidden from assistive technology, which reads the summary and the table.
 */
export function StatsChart({ stats, width = 420, height = 220 }: { stats: Stats; width?: number; height?: number }) {
  const id = useId();
  const data = stats.rows.map((row) => ({ label: row.label, ...row.counts }));
  return (
    <figure className="stats-chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="stats-chart__caption">
        {statsSummary(stats)}
      </figcaption>
      {stats.rows.length === 0 ? (
        <p className="dashboard-panel__empty">Nothing to count yet.</p>
      ) : (
        <div aria-hidden="true">
          <BarChart width={width} height={height} data={data} margin={{ top: 4, right: 4, bottom: 4, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 11 }} />
            <YAxis width={36} tick={{ fontSize: 11 }} allowDecimals={false} />
            <Tooltip />
            <Legend formatter={(value) => seriesLabel(String(value))} />
            {stats.series.map((series, i) => (
              <Bar key={series} dataKey={series} name={series} fill={COLOURS[i % COLOURS.length]} isAnimationActive={false} />
            ))}
          </BarChart>
        </div>
      )}
      <table className="visually-hidden">
        <caption>{stats.title}</caption>
        <thead>
          <tr>
            <th scope="col">{stats.rowLabel}</th>
            {stats.series.map((s) => (
              <th scope="col" key={s}>
                {seriesLabel(s)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {stats.rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              {stats.series.map((s) => (
                <td key={s}>{row.counts[s] ?? 0}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
