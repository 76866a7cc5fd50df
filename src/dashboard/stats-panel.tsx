import type { Stats } from '../../core/schemas/stats';
import { Panel, type PanelData } from './panel';
import { StatsChart } from './stats-chart';

/** Statistics (spec 2.2): one chart per statistic the user may read. */
export function StatsPanel({ loaded }: { loaded: PanelData<Stats[]> }) {
  return (
    <Panel title="Statistics" loaded={loaded} isEmpty={(s) => s.length === 0} empty="No statistics to show.">
      {(all) => (
        <div className="stats-grid">
          {all.map((stats) => (
            <StatsChart key={stats.key} stats={stats} />
          ))}
        </div>
      )}
    </Panel>
  );
}
