import { useMemo } from 'react';
import { PhysicalItemFormInput, type PhysicalItem, type PhysicalItemInput } from '../../core/schemas/cases';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { TextareaField } from '../ui/form/textarea-field';
import { TextField } from '../ui/form/text-field';
import { CaseRecordEdit } from './case-record-edit';
import { physicalItemsApi } from './case-records-api';
import { collectionFields, collectionInstant } from './collection-time';

const EMPTY: PhysicalItemFormInput = { itemId: '', description: '', collectedDate: '', collectedTime: '', collectionPlace: '', collectedBy: '' };

const valuesOf = (r: PhysicalItem): PhysicalItemFormInput => ({
  itemId: r.itemId,
  description: r.description,
  ...collectionFields(r.collectedAt),
  collectionPlace: r.collectionPlace,
  collectedBy: r.collectedBy,
});

const toInput = ({ collectedDate, collectedTime, ...rest }: PhysicalItemFormInput): PhysicalItemInput => ({ ...rest, collectedAt: collectionInstant(collectedDate, collectedTime) });

/** PhysicalItemEdit (spec 2.8; issue 18): the item's id and description, and when, where and by whom it was collected. */
export function PhysicalItemEdit({ orgId, caseId, id }: { orgId: string; caseId: string; id: string }) {
  const api = useApi();
  const calls = useMemo(() => physicalItemsApi(api), [api]);
  return (
    <CaseRecordEdit<PhysicalItem, PhysicalItemInput, PhysicalItemFormInput>
      caseId={caseId}
      id={id}
      calls={calls}
      schema={PhysicalItemFormInput}
      title={(r, isNew) => (isNew ? 'New item' : r ? `Item ${r.itemId}` : 'Physical item')}
      emptyValues={EMPTY}
      valuesOf={valuesOf}
      toInput={toInput}
      deleteWhat={(r) => `item ${r.itemId}`}
      tabHref={routes.CaseItems.href({ orgId, caseId })}
    >
      <TextField name="itemId" label="Item id" required />
      <TextareaField name="description" label="Description" rows={4} />
      <TextField name="collectedDate" label="Collected on" type="date" hint="Local date; empty when not known." />
      <TextField name="collectedTime" label="Collection time" type="time" hint="Local time, if known." />
      <TextField name="collectionPlace" label="Collection place" />
      <TextField name="collectedBy" label="Collected by" />
    </CaseRecordEdit>
  );
}
