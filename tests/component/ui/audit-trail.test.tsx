import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../../../core/schemas/audit';
import { AuditTrail } from '../../../src/ui/audit-trail/audit-trail';

const ANN = '0190a1b2-0000-7000-8000-000000000001';
const HOMICIDE = '0190a1b2-0000-7000-8000-000000000002';
const ITEM = '0190a1b2-0000-7000-8000-000000000003';
const entry = (e: Partial<AuditEntry> & Pick<AuditEntry, 'seq' | 'entity' | 'action'>): AuditEntry => ({
  at: '2026-11-27T09:15:00.000Z',
  userName: 'Ann Analyst',
  entityId: ITEM,
  recordName: null,
  before: null,
  after: null,
  names: {},
  hash: 'h',
  ...e,
});

const ROWS: AuditEntry[] = [
  entry({ seq: 3, entity: 'PhysicalItem', entityId: ITEM, recordName: 'ITEM-7', action: 'Edited', before: { itemId: 'ITEM-7', collectedAt: null, version: 1 }, after: { itemId: 'ITEM-7', collectedAt: '2026-03-01T13:30:00.000Z', version: 2 } }),
  entry({ seq: 2, entity: 'Profile', entityId: 'p1', recordName: 'S-001', action: 'Approved', before: { status: 'pending', fourEyesReview: false }, after: { status: 'approved', fourEyesReview: true } }),
  entry({
    seq: 1,
    entity: 'Case',
    entityId: 'c1',
    recordName: 'AUD-1',
    action: 'Added',
    after: { caseNumber: 'AUD-1', caseTypeId: HOMICIDE, taskOwnerId: ANN },
    names: { [HOMICIDE]: 'Homicide', [ANN]: 'Ann Analyst' },
  }),
];

const local = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium' });
const rowOf = async (text: string) => (await screen.findByText(text)).closest('[role="row"]') as HTMLElement;

describe('AuditTrail', () => {
  it('reads as a reader reads it: record types and names, field labels, formatted values and local times', async () => {
    render(<AuditTrail label="Case audit trail" load={async () => ({ items: ROWS, count: ROWS.length })} />);
    const item = await rowOf('Physical item ITEM-7');
    expect(within(item).getByText(local('2026-11-27T09:15:00.000Z'))).toBeInTheDocument();
    expect(within(item).getByText(`Collected on: — → ${local('2026-03-01T13:30:00.000Z')}`)).toBeInTheDocument();

    const profile = await rowOf('Profile S-001');
    expect(within(profile).getByText('Status: Pending → Approved; Four-eyes review: No → Yes')).toBeInTheDocument();

    const added = await rowOf('Case AUD-1');
    expect(within(added).getByText('Case number: — → AUD-1; Case type: — → Homicide; Task owner: — → Ann Analyst')).toBeInTheDocument();
    // No type names, field names or ids where a name is known.
    expect(screen.queryByText(/PhysicalItem|caseTypeId|collectedAt/)).toBeNull();
    expect(screen.queryByText(new RegExp(HOMICIDE))).toBeNull();
  });

  it('exports the trail as CSV or PDF in the reader’s time zone and says what was saved', async () => {
    const onExport = vi.fn(async (format: string) => `Audit_trail_case_AUD-1.${format}`);
    render(<AuditTrail label="Case audit trail" load={async () => ({ items: ROWS, count: ROWS.length })} onExport={onExport} />);
    await userEvent.click(screen.getByRole('button', { name: 'Export PDF' }));
    expect(onExport).toHaveBeenCalledWith('pdf', Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(await screen.findByRole('status')).toHaveTextContent('Saved Audit_trail_case_AUD-1.pdf');
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(onExport).toHaveBeenLastCalledWith('csv', expect.any(String));
  });
});
