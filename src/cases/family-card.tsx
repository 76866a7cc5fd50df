import { useMachine } from '@xstate/react';
import { useEffect, useId, useMemo } from 'react';
import type { SnapshotFrom } from 'xstate';
import { Link } from 'wouter';
import type { Family } from '../../core/schemas/families';
import { availableFamilyActions, decidedFamily, FAMILY_CONSEQUENCES, familyDecision, type familyDecisionMachine, type FamilyAction } from '../../machines/familyDecision.machine';
import { ReviewConfirmDialog } from '../ui/review-confirm-dialog';
import { ReviewOutcome } from '../ui/review-outcome';
import { familyDecisionCalls, type FamilyCalls } from './families-api';
import { formatDateTime } from './format';

const plural = (n: number, what: string) => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;

const LABELS: Record<FamilyAction, { button: string; title: string }> = {
  activate: { button: 'Activate', title: 'Activate this family?' },
  deactivate: { button: 'Deactivate', title: 'Deactivate this family?' },
  delete: { button: 'Delete', title: 'Delete this family?' },
};

export const FAMILY_STATUS_LABELS: Record<Family['status'], string> = { draft: 'Draft', active: 'Active (searching)', inactive: 'Inactive' };

interface FamilyCardProps {
  family: Family;
  caseId: string;
  calls: FamilyCalls;
  /** Cases Edit (core/permissions.ts). */
  canEdit: boolean;
  /** The case's pending hits (or all its hits without Hits Publish). */
  hitsHref: string;
  onEdit(family: Family): void;
  onDeleted(family: Family): void;
  /** Where the decision machine starts (stories draw each state from a resolved snapshot). */
  startAt?: SnapshotFrom<typeof familyDecisionMachine>;
}

/**
 * One missing-person family of the case (issue 16): its shape, the relatives typed, the status and what its searches
 * found; Activate, Deactivate and Delete, each confirmed (machines/familyDecision). After an activation it says how many
 * remains profiles were searched and how many hits are new, with a link to the case's hits.
 */
export function FamilyCard({ family, caseId, calls, canEdit, hitsHref, onEdit, onDeleted, startAt }: FamilyCardProps) {
  const logic = useMemo(() => familyDecision.withCalls(familyDecisionCalls(calls, caseId)), [calls, caseId]);
  const input = { record: decidedFamily(family), allowed: { edit: canEdit } };
  const [snapshot, send] = useMachine(logic, startAt ? { input, snapshot: startAt } : { input });
  const titleId = useId();
  const { record, decision } = snapshot.context;
  useEffect(() => {
    if (record.deleted) onDeleted(record);
  }, [record.deleted]);
  const actions = availableFamilyActions(record, snapshot.context.allowed);
  const busy = snapshot.hasTag('busy');
  const event = (action: FamilyAction) => ({ type: 'decision.start', decision: { action } }) as const;
  const facts: [string, React.ReactNode][] = [
    ['Analysis', record.analysisName],
    ['Status', FAMILY_STATUS_LABELS[record.status]],
    ['Hits found', String(record.hitCount)],
    ['Last searched', record.searchedAt ? formatDateTime(record.searchedAt) : 'Never'],
    ['Threshold', `LR ${record.threshold.toLocaleString('en-US')}`],
  ];
  return (
    <article className={`family-card family-card--${record.status}`} aria-labelledby={titleId}>
      <div className="case-tab__header">
        <h3 id={titleId}>{record.name}</h3>
        <div className="case-tab__actions">
          {canEdit && record.status !== 'active' ? (
            <button type="button" className="button button--secondary" disabled={busy} onClick={() => onEdit(record)}>
              Edit
            </button>
          ) : null}
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              className={`button ${action === 'activate' ? 'button--primary' : action === 'delete' ? 'button--danger' : 'button--secondary'}`}
              disabled={!snapshot.can(event(action))}
              onClick={() => send(event(action))}
            >
              {LABELS[action].button}
            </button>
          ))}
        </div>
      </div>
      <dl className="case-summary family-card__facts">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <ul className="family-card__relatives" aria-label={`Relatives of ${record.name}`}>
        <li>
          {record.missingPersonRole}: <em>the remains searched</em>
        </li>
        {record.relatives.map((r) => (
          <li key={r.role}>
            {r.role}: {r.sampleName ?? 'profile removed'}
            {r.status ? <span className={`family-card__profile-status family-card__profile-status--${r.status}`}> ({r.status})</span> : null}
          </li>
        ))}
      </ul>
      <ReviewOutcome snapshot={snapshot} send={send} conflict={{ text: 'The family was not changed.', reload: 'Reload the family' }} />
      {record.lastSearch ? (
        <p className="notice case-tab__saved" role="status">
          Searched {plural(record.lastSearch.searchedProfiles, 'remains profile')}; {plural(record.lastSearch.hitsAdded, 'new hit')}.{' '}
          <Link href={hitsHref}>See the case’s pending hits</Link>
        </p>
      ) : null}
      {decision ? (
        <ReviewConfirmDialog snapshot={snapshot} send={send} title={LABELS[decision.action].title} confirmLabel={LABELS[decision.action].button}>
          <p>
            {record.name}: {FAMILY_CONSEQUENCES[decision.action]}
          </p>
        </ReviewConfirmDialog>
      ) : null}
    </article>
  );
}
