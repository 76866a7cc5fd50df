/** One field an audited write changed, as text a reviewer reads. */
export interface AuditChange {
  field: string;
  before: string;
  after: string;
}

const show = (value: unknown): string => {
  if (value === undefined || value === null || value === '') return '—';
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

// Bookkeeping every write touches; listing it would drown what the user changed.
const IGNORED = new Set(['version', 'updatedAt']);

/** Marker values read as "D3S1358: 15, 16" per marker, so a marker edit shows which markers changed. */
function markerMap(value: unknown): Map<string, string> | null {
  if (!Array.isArray(value) || !value.every((v) => v && typeof v === 'object' && 'marker' in v && 'alleles' in v)) return null;
  return new Map((value as { marker: string; alleles: string[] }[]).map((m) => [m.marker, m.alleles.join(', ')]));
}

/**
 * What a write changed, field by field (ARCHITECTURE.md "Audit": before/after values). Added and
 * deleted records list their fields against "—"; marker value lists compare marker by marker.
 */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const markersBefore = markerMap(before);
  const markersAfter = markerMap(after);
  if (markersBefore || markersAfter) return compareMaps(markersBefore ?? new Map(), markersAfter ?? new Map());
  const b = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>;
  const a = (after && typeof after === 'object' ? after : {}) as Record<string, unknown>;
  const changes: AuditChange[] = [];
  for (const field of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (IGNORED.has(field)) continue;
    if (field === 'markerValues') {
      changes.push(...compareMaps(markerMap(b[field]) ?? new Map(), markerMap(a[field]) ?? new Map()));
      continue;
    }
    if (JSON.stringify(b[field]) !== JSON.stringify(a[field])) changes.push({ field, before: show(b[field]), after: show(a[field]) });
  }
  return changes;
}

function compareMaps(before: Map<string, string>, after: Map<string, string>): AuditChange[] {
  const changes: AuditChange[] = [];
  for (const field of new Set([...before.keys(), ...after.keys()])) {
    const [b, a] = [before.get(field) ?? '—', after.get(field) ?? '—'];
    if (b !== a) changes.push({ field, before: b, after: a });
  }
  return changes;
}
