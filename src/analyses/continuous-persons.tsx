import type { Profile } from '../../core/schemas/profiles';
import { personLabel, type ContinuousRunEvent, type PersonList } from '../../machines/continuousRun.machine';
import type { CalculatorCalls } from './calculator-api';
import { SlotPicker } from './profile-picker';

interface ContinuousPersonsProps {
  orgId: string;
  caseId: string | null;
  personOfInterestId: string | null;
  lists: Record<PersonList, readonly (string | null)[]>;
  /** Whether the machine takes another person in each list (snapshot.can). */
  canAdd: Record<PersonList, boolean>;
  busy: boolean;
  calls: CalculatorCalls;
  /** The profiles chosen so far by id, so each picker shows its own. */
  picked: Readonly<Record<string, Profile>>;
  onPick(profile: Profile): void;
  send(event: ContinuousRunEvent): void;
}

/**
 * The persons of a continuous run: the person of interest (a contributor under Hp only), known contributors (under
 * both hypotheses: a victim, a partner) and known non-contributors (typed persons whose alleles enter θ's counts).
 */
export function ContinuousPersons({ orgId, caseId, personOfInterestId, lists, canAdd, busy, calls, picked, onPick, send }: ContinuousPersonsProps) {
  const picker = (role: string, profileId: string | null, choose: (id: string | null) => void, remove?: () => void) => (
    <SlotPicker key={role} role={role} orgId={orgId} caseId={caseId} kind="Autosomal" profileId={profileId} picked={picked} onPick={onPick} disabled={busy} calls={calls} onChange={choose} {...(remove ? { onRemove: remove } : {})} />
  );
  return (
    <>
      {picker('Person of interest', personOfInterestId, (profileId) => send({ type: 'personOfInterest.choose', profileId }))}
      {(['knownContributors', 'knownNonContributors'] as const).flatMap((list) =>
        lists[list].map((id, index) =>
          picker(personLabel(list, index), id, (profileId) => send({ type: 'person.choose', list, index, profileId }), () => send({ type: 'person.remove', list, index })),
        ),
      )}
      <div className="calculator__slot-actions">
        <button type="button" className="button button--secondary" disabled={busy || !canAdd.knownContributors} onClick={() => send({ type: 'person.add', list: 'knownContributors' })}>
          Add a known contributor
        </button>
        <button type="button" className="button button--secondary" disabled={busy || !canAdd.knownNonContributors} onClick={() => send({ type: 'person.add', list: 'knownNonContributors' })}>
          Add a known non-contributor
        </button>
      </div>
    </>
  );
}
