import type { OrganizationMember } from '../../core/schemas/task-requests';
import { Panel, type PanelData } from './panel';

/** The organization's users (spec 2.2 "organization users"): name, role and e-mail. */
export function MembersPanel({ loaded }: { loaded: PanelData<OrganizationMember[]> }) {
  return (
    <Panel title="Organization users" loaded={loaded} isEmpty={(m) => m.length === 0} empty="No users work for this organization yet.">
      {(members) => (
        <ul className="dashboard-list">
          {members.map((m) => (
            <li key={m.id}>
              <span className="dashboard-list__main">{m.name}</span> <span className="dashboard-list__aside">{[m.roleName, m.email].filter(Boolean).join(' · ')}</span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
