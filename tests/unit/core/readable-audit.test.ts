import { describe, expect, it } from 'vitest';
import { auditChanges } from '../../../core/audit/audit-changes';
import { fieldLabel, recordTypeLabel } from '../../../core/audit/audit-labels';
import { formatAuditValue, formatInstant, type AuditReading } from '../../../core/audit/audit-values';
import { readAuditRow, recordNameOfRow } from '../../../core/audit/readable-audit';

const USER = '0190a1b2-0000-7000-8000-00000000000a';
const utc: AuditReading = { names: { [USER]: 'Rita Reviewer' }, time: (iso) => formatInstant(iso, 'UTC') };

describe('the audit label dictionary', () => {
  it('names record types as a reader does', () => {
    expect(recordTypeLabel('PhysicalItem')).toBe('Physical item');
    expect(recordTypeLabel('InvolvedParty')).toBe('Involved party');
    expect(recordTypeLabel('access-groups')).toBe('Role');
    expect(recordTypeLabel('markers')).toBe('Marker');
    expect(recordTypeLabel('SomethingNew')).toBe('Something new');
  });

  it('labels fields as the screens do, and unknown ones in words', () => {
    expect(fieldLabel('reviewedAt')).toBe('Reviewed at');
    expect(fieldLabel('physicalItemId')).toBe('Item');
    expect(fieldLabel('profileId')).toBe('Profile');
    expect(fieldLabel('collectionPlace')).toBe('Collection place');
    expect(fieldLabel('witnessId')).toBe('Witness');
    expect(fieldLabel('someNewField')).toBe('Some new field');
  });
});

describe('formatAuditValue', () => {
  it('shows nothing as a dash, booleans as Yes/No and words of the program as words', () => {
    expect(formatAuditValue(null, utc)).toBe('—');
    expect(formatAuditValue('', utc)).toBe('—');
    expect(formatAuditValue([], utc)).toBe('—');
    expect(formatAuditValue(true, utc)).toBe('Yes');
    expect(formatAuditValue(false, utc)).toBe('No');
    expect(formatAuditValue('missing-person', utc, 'role')).toBe('Missing person');
    expect(formatAuditValue('approved', utc, 'status')).toBe('Approved');
    expect(formatAuditValue('approved', utc, 'comments')).toBe('approved');
  });

  it('prints instants in the reading’s time zone', () => {
    expect(formatAuditValue('2026-11-27T09:15:00.000Z', utc)).toBe('Nov 27, 2026, 9:15:00 AM');
    expect(formatInstant('2026-11-27T09:15:00.000Z', 'Europe/Oslo')).toBe('Nov 27, 2026, 10:15:00 AM');
  });

  it('replaces an id by the name of its record, and keeps an id it cannot name', () => {
    expect(formatAuditValue(USER, utc)).toBe('Rita Reviewer');
    expect(formatAuditValue('0190a1b2-0000-7000-8000-0000000000ff', utc)).toBe('0190a1b2-0000-7000-8000-0000000000ff');
    expect(formatAuditValue([USER], utc)).toBe('Rita Reviewer');
  });

  it('names objects in lists (assigned users, identifiers) and spells out other objects by label', () => {
    expect(formatAuditValue([{ id: USER, name: 'Rita Reviewer', email: 'r@lab' }, { id: 'x', name: 'Ann Analyst' }], utc)).toBe('Rita Reviewer, Ann Analyst');
    expect(formatAuditValue([{ kind: 'Passport', value: 'N123' }], utc)).toBe('Passport: N123');
    expect(formatAuditValue({ reviewedAt: '2026-11-27T09:15:00.000Z', approved: true }, utc)).toBe('Reviewed at: Nov 27, 2026, 9:15:00 AM; Approved: Yes');
  });
});

describe('auditChanges', () => {
  it('lists the fields an edit changed by their labels, not the bookkeeping', () => {
    expect(auditChanges({ caseNumber: '2026-1', notes: '', version: 1 }, { caseNumber: '2026-2', notes: '', version: 2 }, utc)).toEqual([
      { field: 'Case number', before: '2026-1', after: '2026-2' },
    ]);
  });

  it('shows an added record against empty values', () => {
    expect(auditChanges(null, { title: 'Victim' }, utc)).toEqual([{ field: 'Title', before: '—', after: 'Victim' }]);
  });

  it('shows an id once, by the name the snapshot carries beside it', () => {
    const before = { caseTypeId: 'a', caseTypeName: 'Burglary' };
    const after = { caseTypeId: 'b', caseTypeName: 'Homicide' };
    expect(auditChanges(before, after, utc)).toEqual([{ field: 'Case type', before: 'Burglary', after: 'Homicide' }]);
  });

  it('compares marker values marker by marker', () => {
    const before = { status: 'pending', markerValues: [{ marker: 'D3S1358', alleles: ['15', '16'] }, { marker: 'vWA', alleles: ['17'] }] };
    const after = { status: 'approved', markerValues: [{ marker: 'D3S1358', alleles: ['15', '17'] }, { marker: 'vWA', alleles: ['17'] }] };
    expect(auditChanges(before, after, utc)).toEqual([
      { field: 'Status', before: 'Pending', after: 'Approved' },
      { field: 'D3S1358', before: '15, 16', after: '15, 17' },
    ]);
  });
});

describe('readAuditRow', () => {
  it("names the record by the row's own snapshot: a profile's sample name, an item's id, a user's name", () => {
    expect(recordNameOfRow(null, { profileId: 'S-001', caseNumber: '2026-1' })).toBe('S-001');
    expect(recordNameOfRow({ itemId: 'ITEM-7' }, null)).toBe('ITEM-7');
    expect(recordNameOfRow(null, { firstName: 'Rita', lastName: 'Reviewer', email: 'r@lab' })).toBe('Rita Reviewer');
    expect(recordNameOfRow(null, { status: 'published' })).toBeNull();
  });

  it('reads a row whole: when, who, record type and name, action and changes', () => {
    const row = readAuditRow(
      { at: '2026-11-27T09:15:00.000Z', userName: 'Ann Analyst', entity: 'Hit', entityId: 'h1', recordName: 'S-001 / R-002', action: 'Published', before: { status: 'pending' }, after: { status: 'published' } },
      utc,
    );
    expect(row).toEqual({
      when: 'Nov 27, 2026, 9:15:00 AM',
      who: 'Ann Analyst',
      recordType: 'Hit',
      record: 'S-001 / R-002',
      action: 'Published',
      changes: [{ field: 'Status', before: 'Pending', after: 'Published' }],
    });
  });
});
