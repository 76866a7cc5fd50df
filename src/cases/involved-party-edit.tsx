import { useMemo } from 'react';
import { InvolvedPartyInput, type InvolvedParty } from '../../core/schemas/cases';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { TextareaField } from '../ui/form/textarea-field';
import { TextField } from '../ui/form/text-field';
import { CaseRecordEdit } from './case-record-edit';
import { involvedPartiesApi } from './case-records-api';

const EMPTY: InvolvedPartyInput = { title: '', description: '' };

/** InvolvedPartyEdit (spec 2.8, at `invloved-parties/{id}/edit`): title and description; back to the tab after saving. */
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
      valuesOf={(r) => ({ title: r.title, description: r.description })}
      deleteWhat={(r) => `involved party ${r.title}`}
      tabHref={routes.CaseInvolvedParties.href({ orgId, caseId })}
    >
      <TextField name="title" label="Title" required />
      <TextareaField name="description" label="Description" rows={4} />
    </CaseRecordEdit>
  );
}
