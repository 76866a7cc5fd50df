import { PROFILE_KIND_LABELS, PROFILE_STATUS_LABELS, type Profile } from '../../core/schemas/profiles';
import type { DataColumn } from '../ui/data-table/data-table';
import { StatusBadge } from './status-badge';

/** How a profile's kind reads (spec 2.3: "Y-STR, Autosomal or n/a"). */
export const kindLabel = (kind: string | null | undefined): string => (kind && kind in PROFILE_KIND_LABELS ? PROFILE_KIND_LABELS[kind as Profile['kind']] : 'n/a');

const orDash = (value: string | null) => value ?? '';

/** The profile table's columns (spec 2.3: Profile, Case, Type, Chemistry, Sample Type, Source, Item, Source Laboratory), plus Status. */
export const PROFILE_COLUMNS: readonly DataColumn<Profile>[] = [
  { field: 'profileId', header: 'Profile', sortable: true, filterable: true },
  { field: 'caseNumber', header: 'Case', sortable: true, filterable: true },
  { field: 'kind', header: 'Type', sortable: true, text: (p) => kindLabel(p.kind), width: 110 },
  { field: 'chemistryName', header: 'Chemistry', sortable: true, filterable: true },
  { field: 'sampleType', header: 'Sample Type', sortable: true, filterable: true },
  { field: 'sampleSourceName', header: 'Source', sortable: true, filterable: true, text: (p) => orDash(p.sampleSourceName) },
  { field: 'physicalItemName', header: 'Item', sortable: true, filterable: true, text: (p) => orDash(p.physicalItemName) },
  { field: 'laboratoryName', header: 'Source Laboratory', sortable: true, filterable: true, text: (p) => orDash(p.laboratoryName) },
  { field: 'status', header: 'Status', sortable: true, text: (p) => PROFILE_STATUS_LABELS[p.status], render: (p) => <StatusBadge status={p.status} />, width: 120 },
];
