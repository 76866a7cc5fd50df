import { identifierKindLabel } from '../../core/identifier-kinds';
import { partyRoleLabel } from '../../core/party-roles';
import type { InvolvedParty, PhysicalItem } from '../../core/schemas/cases';
import type { DataColumn } from '../ui/data-table/data-table';
import { formatCollectedAt } from './collection-time';

/** A party's identifiers on one line: "National id 01017012345; Passport K1234567". */
export const identifiersText = (party: Pick<InvolvedParty, 'identifiers'>): string => party.identifiers.map((i) => `${identifierKindLabel(i.kind)} ${i.value}`).join('; ');

/** The Involved parties tab (spec 2.8 Title; issue 18: role, name, identifiers and the profiles taken from each). */
export const PARTY_COLUMNS: readonly DataColumn<InvolvedParty>[] = [
  { field: 'title', header: 'Title', sortable: true, filterable: true, width: 160 },
  { field: 'role', header: 'Role', sortable: true, text: (p) => partyRoleLabel(p.role), width: 170 },
  { field: 'name', header: 'Name', sortable: true, filterable: true, width: 180 },
  { field: 'identifiers', header: 'Identifiers', text: identifiersText },
  { field: 'linkedProfiles', header: 'Profiles', text: (p) => p.linkedProfiles.map((l) => l.profileId).join(', ') },
];

/** The Items tab (spec 2.8 Id, Description; issue 18: when, where and by whom each was collected, in local time). */
export const ITEM_COLUMNS: readonly DataColumn<PhysicalItem>[] = [
  { field: 'itemId', header: 'Id', sortable: true, filterable: true, width: 140 },
  { field: 'description', header: 'Description', sortable: true, filterable: true },
  { field: 'collectedAt', header: 'Collected', sortable: true, text: (i) => formatCollectedAt(i.collectedAt), width: 190 },
  { field: 'collectionPlace', header: 'Place', sortable: true, filterable: true },
  { field: 'collectedBy', header: 'Collected by', sortable: true, filterable: true, width: 170 },
];
