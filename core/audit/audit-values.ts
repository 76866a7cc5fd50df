import { fieldLabel, humanize } from './audit-labels';

/** How a reader sees the trail's values: the names of the records ids stand for, and instants in a time zone. */
export interface AuditReading {
  /** Record names by id (users, case types, items, …) as the server resolved them; an unknown id stays an id. */
  names: Readonly<Record<string, string>>;
  /** An ISO instant as text: the SPA gives the reader's local time, the exports a zone they state. */
  time(iso: string): string;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isGuid = (value: unknown): value is string => typeof value === 'string' && GUID.test(value);

/**
 * An instant as a reader reads it, e.g. "Nov 27, 2026, 1:18:48 AM"; `timeZone` undefined is the
 * machine's own zone (the browser's: the reader's local time).
 */
export function formatInstant(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium', ...(timeZone ? { timeZone } : {}) });
}

/** Fields whose value is a word of the program ('pending', 'missing-person'), shown as words ("Pending", "Missing person"). */
const WORD_VALUED = new Set(['status', 'kind', 'scope', 'role']);

/** What names an object inside a value (an assigned user, a chemistry): its name, title or value. */
function nameOf(value: Record<string, unknown>, reading: AuditReading): string | null {
  if (typeof value.kind === 'string' && typeof value.value === 'string') return `${value.kind}: ${value.value}`;
  for (const key of ['name', 'title', 'profileId', 'caseNumber', 'itemId', 'value']) {
    if (typeof value[key] === 'string' && value[key] !== '') return value[key];
  }
  if (isGuid(value.id) && reading.names[value.id]) return reading.names[value.id]!;
  return null;
}

/**
 * One recorded value as text: "—" for nothing, Yes/No, instants in the reader's zone, ids replaced by
 * the name of the record they stand for, lists joined, objects as "Label: value" pairs.
 */
export function formatAuditValue(value: unknown, reading: AuditReading, field?: string): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    if (ISO_INSTANT.test(value)) return reading.time(value);
    if (GUID.test(value)) return reading.names[value] ?? value;
    if (field && WORD_VALUED.has(field) && /^[a-z][a-z-]*$/.test(value)) return humanize(value);
    return value;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '—';
    return value.map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? (nameOf(v as Record<string, unknown>, reading) ?? formatAuditValue(v, reading)) : formatAuditValue(v, reading, field))).join(', ');
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const named = nameOf(record, reading);
    if (named !== null) return named;
    return Object.entries(record)
      .map(([k, v]) => `${fieldLabel(k)}: ${formatAuditValue(v, reading, k)}`)
      .join('; ');
  }
  return String(value);
}
