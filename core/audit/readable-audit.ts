import { auditChanges, type AuditChange } from './audit-changes';
import { humanize, recordTypeLabel } from './audit-labels';
import type { AuditReading } from './audit-values';

/** What a trail row holds that a reader sees (core/schemas/audit.ts AuditEntry). */
export interface AuditRowContent {
  at: string;
  userName: string;
  entity: string;
  entityId: string;
  recordName?: string | null;
  action: string;
  before: unknown;
  after: unknown;
}

/** One trail row as a reader reads it: when (in their zone), who, which record by type and name, what, and the changes. */
export interface ReadableAuditRow {
  when: string;
  who: string;
  recordType: string;
  record: string;
  action: string;
  changes: AuditChange[];
}

const snapshot = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null);
const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/**
 * The name a record had in the row itself (a profile's sample name, a case's number, an item's id, a
 * user's name), taken from the state after the write, or before it for a deletion; null when the row
 * records none (a hit's decision), and the server looks the record up instead.
 */
export function recordNameOfRow(before: unknown, after: unknown): string | null {
  for (const state of [snapshot(after), snapshot(before)]) {
    if (!state) continue;
    const person = [text(state.firstName), text(state.lastName)].filter(Boolean).join(' ');
    const name =
      text(state.profileId) ?? text(state.caseNumber) ?? text(state.itemId) ?? text(state.fileName) ?? text(state.name) ?? text(state.title) ?? (person || null) ?? text(state.hook) ?? text(state.email);
    if (name) return name;
  }
  return null;
}

/** A trail row in the reader's words (issue 18: record names, field labels, values formatted, local times). */
export function readAuditRow(row: AuditRowContent, reading: AuditReading): ReadableAuditRow {
  return {
    when: reading.time(row.at),
    who: row.userName,
    recordType: recordTypeLabel(row.entity),
    record: row.recordName ?? recordNameOfRow(row.before, row.after) ?? (row.entityId ? (reading.names[row.entityId] ?? row.entityId) : '—'),
    action: /^[a-z]/.test(row.action) ? humanize(row.action) : row.action,
    changes: auditChanges(row.before, row.after, reading),
  };
}
