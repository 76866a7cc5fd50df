import { Link } from 'wouter';
import type { Case } from '../../core/schemas/cases';
import { routes } from '../app/routes';
import { Panel, type PanelData } from './panel';

const changed = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** The last cases changed, each leading to its case view. */
export function RecentCasesPanel({ orgId, loaded }: { orgId: string; loaded: PanelData<Case[]> }) {
  return (
    <Panel title="Recent cases" loaded={loaded} isEmpty={(c) => c.length === 0} empty="No cases yet.">
      {(cases) => (
        <ul className="dashboard-list">
          {cases.map((c) => (
            <li key={c.id}>
              <Link href={routes.CaseInvolvedParties.href({ orgId, caseId: c.id })} className="dashboard-list__main">
                {c.caseNumber}
              </Link>{' '}
              <span className="dashboard-list__aside">
                {c.caseTypeName} · {c.status} · changed <time dateTime={c.updatedAt}>{changed.format(new Date(c.updatedAt))}</time>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
