import { useMemo } from 'react';
import { PhysicalItemInput, type PhysicalItem } from '../../core/schemas/cases';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { TextareaField } from '../ui/form/textarea-field';
import { TextField } from '../ui/form/text-field';
import { CaseRecordEdit } from './case-record-edit';
import { physicalItemsApi } from './case-records-api';

const EMPTY: PhysicalItemInput = { itemId: '', description: '' };

/** PhysicalItemEdit (spec 2.8): the item's id and description; back to the Items tab after saving. */
export function PhysicalItemEdit({ orgId, caseId, id }: { orgId: string; caseId: string; id: string }) {
  const api = useApi();
  const calls = useMemo(() => physicalItemsApi(api), [api]);
  return (
    <CaseRecordEdit<PhysicalItem, PhysicalItemInput>
      caseId={caseId}
      id={id}
      calls={calls}
      schema={PhysicalItemInput}
      title={(r, isNew) => (isNew ? 'New item' : r ? `Item ${r.itemId}` : 'Physical item')}
      emptyValues={EMPTY}
      valuesOf={(r) => ({ itemId: r.itemId, description: r.description })}
      deleteWhat={(r) => `item ${r.itemId}`}
      tabHref={routes.CaseItems.href({ orgId, caseId })}
    >
      <TextField name="itemId" label="Item id" required />
      <TextareaField name="description" label="Description" rows={4} />
    </CaseRecordEdit>
  );
}
