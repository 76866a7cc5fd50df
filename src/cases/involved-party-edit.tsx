import { useMemo } from 'react';
import { PARTY_ROLES, PARTY_ROLE_LABELS } from '../../core/party-roles';
import { InvolvedPartyInput, type InvolvedParty } from '../../core/schemas/cases';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { SelectField } from '../ui/form/select-field';
import { TextareaField } from '../ui/form/textarea-field';
import { TextField } from '../ui/form/text-field';
import { CaseRecordEdit } from './case-record-edit';
import { involvedPartiesApi } from './case-records-api';
import { PartyIdentifiersField } from './party-identifiers-field';

// A party entered before roles has role '': the select shows its placeholder and saving asks for a role.
const EMPTY = { title: '', role: '', name: '', identifiers: [], description: '' } as unknown as InvolvedPartyInput;
const ROLE_OPTIONS = PARTY_ROLES.map((r) => ({ value: r, label: PARTY_ROLE_LABELS[r] }));

/** What deleting a party does to the profiles taken from it (the server unlinks them), or nothing when there are none. */
function unlinkNote(party: InvolvedParty) {
  const names = party.linkedProfiles.map((p) => p.profileId);
  if (names.length === 0) return null;
  const one = names.length === 1;
  return (
    <p>
      {one ? 'Profile' : 'Profiles'} {names.join(', ')} {one ? 'was' : 'were'} taken from this party: {one ? 'it stays' : 'they stay'} in the case, no longer
      linked to a party.
    </p>
  );
}

/** InvolvedPartyEdit (spec 2.8, at `invloved-parties/{id}/edit`; issue 18): title, role, name, identifiers, description. */
export function InvolvedPartyEdit({ orgId, caseId, id }: { orgId: string; caseId: string; id: string }) {
  const api = useApi();
  const calls = useMemo(() => involvedPartiesApi(api), [api]);
  return (
    <CaseRecordEdit<InvolvedParty, InvolvedPartyInput>
      caseId={caseId}
      id={id}
      calls={calls}
      schema={InvolvedPartyInput}
      title={(r, isNew) => (isNew ? 'New involved party' : r ? `Involved party ${r.title}` : 'Involved party')}
      emptyValues={EMPTY}
      valuesOf={(r) => ({ title: r.title, role: r.role as InvolvedPartyInput['role'], name: r.name, identifiers: r.identifiers as InvolvedPartyInput['identifiers'], description: r.description })}
      deleteWhat={(r) => `involved party ${r.title}`}
      deleteNote={unlinkNote}
      tabHref={routes.CaseInvolvedParties.href({ orgId, caseId })}
    >
      <TextField name="title" label="Title" hint="How the case names the party, e.g. Suspect 1." required />
      <SelectField name="role" label="Role" required placeholder="Choose a role" options={ROLE_OPTIONS} />
      <TextField name="name" label="Name" hint="As the agency gives it; empty when not known." />
      <PartyIdentifiersField />
      <TextareaField name="description" label="Description" rows={4} />
    </CaseRecordEdit>
  );
}
