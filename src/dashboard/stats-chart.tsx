import { Suspense, useId } from 'react';
import type { Stats } from '../../core/schemas/stats';
import { lazyPage } from '../app/lazy-page';
import { seriesLabel } from './series-label';

// The charting library is most of the dashboard's code: it comes once there are bars to draw, after the page shows.
const StatsBars = lazyPage(() => import('./stats-bars'), 'StatsBars');

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
  return (
    <figure className="stats-chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="stats-chart__caption">
        {statsSummary(stats)}
      </figcaption>
      {stats.rows.length === 0 ? (
        <p className="dashboard-panel__empty">Nothing to count yet.</p>
      ) : (
        <div aria-hidden="true">
          {/* The same size while the chart's code downloads, so the page does not move. */}
          <Suspense fallback={<div style={{ width, height }} />}>
            <StatsBars stats={stats} width={width} height={height} />
          </Suspense>
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
