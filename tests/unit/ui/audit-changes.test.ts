import { describe, expect, it } from 'vitest';
import { auditChanges } from '../../../src/ui/audit-trail/audit-changes';

describe('auditChanges', () => {
  it('lists the fields an edit changed, not the bookkeeping', () => {
    expect(auditChanges({ caseNumber: '2026-1', notes: '', version: 1 }, { caseNumber: '2026-2', notes: '', version: 2 })).toEqual([
      { field: 'caseNumber', before: '2026-1', after: '2026-2' },
    ]);
  });

  it('shows an added record against empty values', () => {
    expect(auditChanges(null, { title: 'Victim' })).toEqual([{ field: 'title', before: '—', after: 'Victim' }]);
  });

  it('compares marker values marker by marker', () => {
    const before = { status: 'pending', markerValues: [{ marker: 'D3S1358', alleles: ['15', '16'] }, { marker: 'vWA', alleles: ['17'] }] };
    const after = { status: 'approved', markerValues: [{ marker: 'D3S1358', alleles: ['15', '17'] }, { marker: 'vWA', alleles: ['17'] }] };
    expect(auditChanges(before, after)).toEqual([
      { field: 'status', before: 'pending', after: 'approved' },
      { field: 'D3S1358', before: '15, 16', after: '15, 17' },
    ]);
  });
});
