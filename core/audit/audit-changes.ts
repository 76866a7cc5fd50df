import { fieldLabel } from './audit-labels';
import { formatAuditValue, type AuditReading } from './audit-values';

/** One field an audited write changed, as text a reviewer reads: the field's label and both values formatted. */
export interface AuditChange {
  field: string;
  before: string;
  after: string;
}

// Bookkeeping every write touches, and the record's own id (the Record column names it); listing them would drown what the user changed.
const IGNORED = new Set(['version', 'updatedAt', 'id']);

/** Marker values read as "D3S1358: 15, 16" per marker, so a marker edit shows which markers changed. */
function markerMap(value: unknown): Map<string, string> | null {
  if (!Array.isArray(value) || !value.every((v) => v && typeof v === 'object' && 'marker' in v && 'alleles' in v)) return null;
  return new Map((value as { marker: string; alleles: string[] }[]).map((m) => [m.marker, m.alleles.join(', ')]));
}

const asRecord = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Record<string, unknown>;

/**
 * What a write changed, field by field (ARCHITECTURE.md "Audit": before/after values), labelled and
 * formatted for `reading`. Added and deleted records list their fields against "—"; marker value lists
 * compare marker by marker; an id whose name the snapshot also carries (caseTypeId beside caseTypeName)
 * is shown once, by the name.
 */
export function auditChanges(before: unknown, after: unknown, reading: AuditReading): AuditChange[] {
  const markersBefore = markerMap(before);
  const markersAfter = markerMap(after);
  if (markersBefore || markersAfter) return compareMaps(markersBefore ?? new Map(), markersAfter ?? new Map());
  const b = asRecord(before);
  const a = asRecord(after);
  const fields = new Set([...Object.keys(b), ...Object.keys(a)]);
  const changes: AuditChange[] = [];
  for (const field of fields) {
    if (IGNORED.has(field)) continue;
    if (field.endsWith('Id') && fields.has(`${field.slice(0, -2)}Name`)) continue;
    if (field === 'markerValues') {
      changes.push(...compareMaps(markerMap(b[field]) ?? new Map(), markerMap(a[field]) ?? new Map()));
      continue;
    }
    if (JSON.stringify(b[field]) !== JSON.stringify(a[field])) {
      changes.push({ field: fieldLabel(field), before: formatAuditValue(b[field], reading, field), after: formatAuditValue(a[field], reading, field) });
    }
  }
  return changes;
}

function compareMaps(before: Map<string, string>, after: Map<string, string>): AuditChange[] {
  const changes: AuditChange[] = [];
  for (const field of new Set([...before.keys(), ...after.keys()])) {
    const [b, a] = [before.get(field) || '—', after.get(field) || '—'];
    if (b !== a) changes.push({ field, before: b, after: a });
  }
  return changes;
}

/** The changes as one line: "Status: Pending → Approved; D3S1358: 15, 16 → 15, 17". */
export const changesText = (changes: readonly AuditChange[]): string => changes.map((c) => `${c.field}: ${c.before} → ${c.after}`).join('; ');
