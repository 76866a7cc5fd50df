import type { ProfileKind, Profile } from '../../core/schemas/profiles';
import { knownContributorLabel, replicateLabel, type AnalysisRunEvent, type MixtureRun } from '../../machines/analysisRun.machine';
import type { CalculatorCalls } from './calculator-api';
import { SlotPicker } from './profile-picker';

interface MixtureChoicesProps {
  mixture: MixtureRun;
  /** Whether the machine takes another replicate / known contributor (snapshot.can). */
  canAddReplicate: boolean;
  canAddKnownContributor: boolean;
  orgId: string;
  caseId: string | null;
  kind: ProfileKind;
  busy: boolean;
  calls: CalculatorCalls;
  /** The profiles chosen so far by id, so each picker shows its own. */
  picked: Readonly<Record<string, Profile>>;
  onPick(profile: Profile): void;
  send(event: AnalysisRunEvent): void;
}

/** A mixture run's further replicates of the evidence and its known contributors (issue 17): a picker each, added and removed here. */
export function MixtureChoices({ mixture, canAddReplicate, canAddKnownContributor, orgId, caseId, kind, busy, calls, picked, onPick, send }: MixtureChoicesProps) {
  const picker = (label: string, profileId: string | null, choose: (id: string | null) => void, remove: () => void) => (
    <SlotPicker key={label} role={label} orgId={orgId} caseId={caseId} kind={kind} profileId={profileId} picked={picked} onPick={onPick} disabled={busy} calls={calls} onChange={choose} onRemove={remove} />
  );
  return (
    <>
      {mixture.replicateProfileIds.map((id, index) =>
        picker(replicateLabel(index), id, (profileId) => send({ type: 'replicate.choose', index, profileId }), () => send({ type: 'replicate.remove', index })),
      )}
      {mixture.knownContributorIds.map((id, index) =>
        picker(knownContributorLabel(index), id, (profileId) => send({ type: 'knownContributor.choose', index, profileId }), () => send({ type: 'knownContributor.remove', index })),
      )}
      <div className="calculator__slot-actions">
        <button type="button" className="button button--secondary" disabled={busy || !canAddReplicate} onClick={() => send({ type: 'replicate.add' })}>
          Add a replicate of the evidence
        </button>
        <button type="button" className="button button--secondary" disabled={busy || !canAddKnownContributor} onClick={() => send({ type: 'knownContributor.add' })}>
          Add a known contributor
        </button>
      </div>
    </>
  );
}
