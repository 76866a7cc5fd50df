import type { Case } from '../../core/schemas/cases';

/** The facts above a case's tabs: type, organization, status and who is assigned (spec 2.8 case view). */
export function CaseSummary({ record }: { record: Case }) {
  return (
    <dl className="case-summary">
      <div>
        <dt>Case type</dt>
        <dd>{record.caseTypeName}</dd>
      </div>
      <div>
        <dt>Organization</dt>
        <dd>{record.organizationName}</dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>
          <span className={`case-status case-status--${record.status.toLowerCase()}`}>{record.status}</span>
        </dd>
      </div>
      <div>
        <dt>Assigned users</dt>
        <dd>{record.assignedUsers.length > 0 ? record.assignedUsers.map((u) => u.name).join(', ') : 'None'}</dd>
      </div>
    </dl>
  );
}
