import { useMemo, useState } from 'react';
import { can } from '../../core/permissions';
import { isGuid } from '../../core/guid';
import { CaseInput, type Case } from '../../core/schemas/cases';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { usePrincipal } from '../app/use-principal';
import { TextField } from '../ui/form/text-field';
import { EditorPage } from '../ui/record/editor-page';
import { RecordForm } from '../ui/record/record-form';
import { useRecordEditor } from '../ui/record/use-record-editor';
import { AgencyFiles } from './agency-files';
import { agencyFilesApi } from './agency-files-api';
import { AssignedUsersField } from './assigned-users-field';
import { casesApi } from './cases-api';
import { ChoiceWithNewField } from './choice-with-new-field';
import { refusedDelete } from './refused-delete';
import { useCaseFormOptions } from './use-case-form-options';
import './cases.css';

/** What the form may add inline, per option list: the button, the dialog's title and the call. */
const INLINE_ADD = {
  caseTypes: { label: 'New case type…', title: 'New case type', call: 'addCaseType' },
  organizations: { label: 'New organization…', title: 'New organization', call: 'addOrganization' },
} as const;

/** The form's values: the record's, or for a new case the organization in the address (unless it is `all`). */
function formValues(source: CaseInput | Case | null, orgId: string): CaseInput {
  if (source && 'id' in source) {
    return { caseNumber: source.caseNumber, caseTypeId: source.caseTypeId, organizationId: source.organizationId, assignedUserIds: source.assignedUsers.map((u) => u.id) };
  }
  return source ?? { caseNumber: '', caseTypeId: '', organizationId: isGuid(orgId) ? orgId : '', assignedUserIds: [] };
}

/** A new case's organization when none is chosen yet and the user can choose only one. */
const withSoleOrganization = (values: CaseInput, sole: string | null): CaseInput => (values.organizationId === '' && sole ? { ...values, organizationId: sole } : values);

/**
 * CaseEdit (spec 2.8): case number, case type, organization and assigned users; an existing case
 * also has its agency files here. After saving the user goes to the case's profiles.
 */
export function CaseEdit({ orgId, caseId }: { orgId: string; caseId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => casesApi(api), [api]);
  const files = useMemo(() => agencyFilesApi(api), [api]);
  const editor = useRecordEditor<Case, CaseInput>(caseId, {
    load: calls.get,
    save: ({ id, record, values }) => (id && record ? calls.update(id, { ...values, version: record.version }) : calls.add(values)),
    remove: ({ id }) => calls.remove(id).catch(refusedDelete),
  });
  const record = editor.record;
  const [chosenOrganization, setChosenOrganization] = useState<string | null>(null);
  const loaded = editor.status !== 'loading' && editor.status !== 'starting' && editor.status !== 'loadFailed';
  const [sole, setSole] = useState<string | null>(null);
  const values = useMemo(() => withSoleOrganization(formValues(editor.draft ?? record, orgId), sole), [record, sole]);
  const { choices, added } = useCaseFormOptions(calls, loaded ? (chosenOrganization ?? values.organizationId) : undefined);
  // A user of one organization is not asked to choose it (issue 30): the form starts with it chosen.
  const only = choices && choices !== 'failed' && choices.organizations.length === 1 ? choices.organizations[0]!.id : null;
  if (only !== sole) setSole(only);
  // Spec 6: adding case types or organizations from the case form needs an administrator with scope All.
  const addsReferenceData = principal.isAdmin && principal.scope === 'All';
  const adding = (list: keyof typeof INLINE_ADD) => {
    const { label, title, call } = INLINE_ADD[list];
    return addsReferenceData ? { adding: { label, title, create: calls[call], onCreated: (r: { id: string; name: string }) => added(list, r) } } : {};
  };
  const listHref = routes.Cases.href({ orgId });

  // Users already assigned stay listed in their organization even when no longer offered (locked out since).
  const offered = choices && choices !== 'failed' ? choices.users : [];
  const stillAssigned =
    record && choices && choices !== 'failed' && choices.usersOf === record.organizationId ? record.assignedUsers.filter((a) => !offered.some((u) => u.id === a.id)) : [];
  const users = [...offered, ...stillAssigned];

  return (
    <EditorPage
      title={editor.isNew ? 'New case' : record ? `Case ${record.caseNumber}` : 'Case'}
      editor={editor}
      doneHref={(saved) => (editor.status === 'deleted' || !saved ? listHref : routes.CaseProfiles.href({ orgId, caseId: saved.id }))}
      deleteWhat={(r) => `case ${r.caseNumber}`}
    >
      {choices === 'failed' ? (
        <p className="notice notice--negative" role="alert">
          The case types and organizations for this form could not be loaded. Reload the page to try again.
        </p>
      ) : choices ? (
        <RecordForm
          schema={CaseInput}
          values={values}
          onSubmit={editor.save}
          busy={editor.status === 'saving'}
          cancelHref={record ? routes.CaseInvolvedParties.href({ orgId, caseId: record.id }) : listHref}
          readOnly={!can(principal, 'Cases', editor.isNew ? 'Add' : 'Edit')}
          onDelete={!editor.isNew && can(principal, 'Cases', 'Delete') ? editor.askDelete : undefined}
        >
          <TextField name="caseNumber" label="Case number" required />
          <ChoiceWithNewField name="caseTypeId" label="Case type" placeholder="Choose a case type" options={choices.caseTypes} {...adding('caseTypes')} />
          <ChoiceWithNewField name="organizationId" label="Organization" placeholder="Choose an organization" options={choices.organizations} {...adding('organizations')} />
          <AssignedUsersField users={users} usersOf={choices.usersOf} onOrganizationChange={setChosenOrganization} />
        </RecordForm>
      ) : (
        <p role="status" aria-busy="true">
          Loading…
        </p>
      )}
      {record ? <AgencyFiles caseId={record.id} calls={files} mayChange={can(principal, 'Cases', 'Edit')} /> : null}
    </EditorPage>
  );
}
