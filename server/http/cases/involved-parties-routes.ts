import { InvolvedParty, InvolvedPartyInput } from '../../../core/schemas/cases';
import { involvedParties } from '../../db/schema';
import { caseChildRoutes, textColumn } from './case-child-routes';

/** cases/{caseId}/involved-parties (spec 2.8: table column Title). */
export const involvedPartyRoutes = caseChildRoutes({
  path: 'involved-parties',
  table: involvedParties,
  what: 'involved party',
  auditEntity: 'InvolvedParty',
  input: InvolvedPartyInput,
  item: InvolvedParty,
  toItem: (row) => ({ id: row.id, version: row.version, caseId: row.caseId, title: row.title, description: row.description, createdAt: row.createdAt.toISOString() }),
  columns: { title: textColumn(involvedParties.title), description: textColumn(involvedParties.description), createdAt: { expr: involvedParties.createdAt, sortable: true } },
  defaultSort: 'title:asc',
});
