import { useMemo, useRef } from 'react';
import { can } from '../../core/permissions';
import { describeParty } from '../../core/party-roles';
import { ProfileInput, type Profile, type ProfileKind } from '../../core/schemas/profiles';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { usePrincipal } from '../app/use-principal';
import { TextField } from '../ui/form/text-field';
import { EditorPage } from '../ui/record/editor-page';
import { RecordForm } from '../ui/record/record-form';
import { useRecordEditor } from '../ui/record/use-record-editor';
import { AssignmentFields } from './assignment-fields';
import { LoadState } from './load-state';
import { profilesApi } from './profiles-api';
import { useProfileFormData } from './use-profile-form-data';

export interface ProfileFormProps {
  orgId: string;
  caseId: string;
  /** `new` adds a profile to the case by hand; otherwise the profile's id. */
  sampleid: string;
  /** The profile as the route already read it (kept so it is not read twice). */
  profile?: Profile | undefined;
  /** The kind of the profile being edited: only chemistries of that kind are offered. */
  kind?: ProfileKind | undefined;
}

function formValues(caseId: string, source: ProfileInput | Profile | null): ProfileInput {
  if (source && 'id' in source) {
    const { profileId, chemistryId, sampleSourceId, physicalItemId, laboratoryId, comments } = source;
    const involvedPartyId = source.involvedParty?.id ?? null;
    return { profileId, caseId: source.caseId, chemistryId, sampleType: source.sampleType as ProfileInput['sampleType'], sampleSourceId, physicalItemId, involvedPartyId, laboratoryId, comments };
  }
  if (source) return source;
  // Empty until chosen: the selects show their placeholder and the schema says Required.
  return { profileId: '', caseId, chemistryId: '', sampleType: '' as ProfileInput['sampleType'], sampleSourceId: null, physicalItemId: null, involvedPartyId: null, laboratoryId: null, comments: '' };
}

/**
 * The profile form (spec 2.8 `…/edit`, Profiles Edit): its sample name, chemistry, sample type,
 * source, item, involved party (Taken from), laboratory and comments. `new` adds the profile by hand with no markers and goes
 * on to the marker entry form; a saved edit goes back to the profile.
 */
export function ProfileForm({ orgId, caseId, sampleid, profile, kind }: ProfileFormProps) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => profilesApi(api), [api]);
  const given = useRef(profile);
  const editor = useRecordEditor<Profile, ProfileInput>(sampleid, {
    load: (id) => {
      // The route's copy serves the first read; a reload after a conflict reads the current version.
      const first = given.current;
      given.current = undefined;
      return first?.id === id ? Promise.resolve(first) : calls.get(id);
    },
    save: async ({ id, record, values }) => {
      if (id && record) return calls.update(id, { ...values, version: record.version });
      const { profileId, caseId: _case, ...assignment } = values;
      const added = await calls.add({ ...assignment, caseId, profiles: [{ profileId, markerValues: [] }] });
      return added.items[0]!;
    },
  });
  const record = editor.record;
  const formData = useProfileFormData(
    calls,
    orgId,
    caseId,
    record ? { item: { id: record.physicalItemId, name: record.physicalItemName }, party: { id: record.involvedParty?.id ?? null, name: record.involvedParty ? describeParty(record.involvedParty) : null } } : undefined,
  );
  const values = useMemo(() => formValues(caseId, editor.draft ?? record), [record]);
  const viewHref = (id: string) => routes.ProfilesView.href({ orgId, caseId, sampleid: id });
  const cancelHref = editor.isNew ? routes.CaseProfiles.href({ orgId, caseId }) : viewHref(sampleid);
  const locked = record !== null && record.status !== 'pending';
  return (
    <EditorPage
      title={editor.isNew ? 'New profile' : `Edit profile ${record?.profileId ?? ''}`.trim()}
      editor={editor}
      doneHref={(saved) => (editor.isNew && saved ? routes.ProfileMarkersEdit.href({ orgId, caseId, sampleid: saved.id }) : viewHref(saved?.id ?? sampleid))}
    >
      {editor.isNew ? <p>The profile is added to the case as pending; its markers are entered next.</p> : null}
      <LoadState loaded={formData} missing="This case no longer exists.">
        {(data) => (
          <RecordForm
            schema={ProfileInput}
            values={values}
            onSubmit={editor.save}
            busy={editor.status === 'saving'}
            cancelHref={cancelHref}
            readOnly={!can(principal, 'Profiles', editor.isNew ? 'Add' : 'Edit', { orgId })}
            submitLabel={editor.isNew ? 'Add and enter markers' : 'Save'}
          >
            <TextField name="profileId" label="Profile" hint="The sample name, unique in the case." required />
            <AssignmentFields
              options={data.options}
              items={data.items}
              parties={data.parties}
              kind={record?.kind ?? kind}
              chemistryLocked={locked}
              chemistryHint={locked ? `This profile is ${record?.status}; reset it to pending to change its chemistry.` : undefined}
            />
          </RecordForm>
        )}
      </LoadState>
    </EditorPage>
  );
}
