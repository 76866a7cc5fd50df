import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../../../core/schemas/audit';
import type { AuditCalls } from '../../../src/admin/audit/audit-api';
import { AuditPeriodPageView } from '../../../src/admin/audit/audit-period-page';

const ORG = '0190a1b2-0000-7000-8000-0000000000aa';
const row: AuditEntry = {
  seq: 1,
  at: '2026-11-27T09:15:00.000Z',
  userName: 'Ann Analyst',
  entity: 'Profile',
  entityId: 'p1',
  recordName: 'S-001',
  action: 'Approved',
  before: { status: 'pending' },
  after: { status: 'approved' },
  names: {},
  hash: 'h',
};

function fakeCalls() {
  return {
    list: vi.fn(async () => ({ items: [row], count: 1 })),
    export: vi.fn(async (_org: string, _period: unknown, format: string) => `Audit_trail.${format}`),
  } satisfies AuditCalls;
}

describe('the administration audit trail', () => {
  it('lists the last 30 days in the reader’s time zone, narrows to one record type, and exports that period', async () => {
    const calls = fakeCalls();
    render(<AuditPeriodPageView orgId={ORG} calls={calls} />);
    expect(await screen.findByText('Profile S-001')).toBeInTheDocument();
    const [, period] = calls.list.mock.calls[0]! as unknown as [string, { from: string; to: string; timeZone: string; entity: string }];
    expect(period).toMatchObject({ entity: '', timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });
    expect((Date.parse(period.to) - Date.parse(period.from)) / 86_400_000).toBe(29);

    await userEvent.selectOptions(screen.getByLabelText('Record type'), 'Physical item');
    await waitFor(() => expect(calls.list).toHaveBeenLastCalledWith(ORG, expect.objectContaining({ entity: 'PhysicalItem' }), expect.anything()));

    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(calls.export).toHaveBeenCalledWith(ORG, expect.objectContaining({ entity: 'PhysicalItem', from: period.from, to: period.to }), 'csv');
    expect(await screen.findByRole('status')).toHaveTextContent('Saved Audit_trail.csv');
  });

  it('says so when the period ends before it starts, and asks nothing', async () => {
    const calls = fakeCalls();
    render(<AuditPeriodPageView orgId={ORG} calls={calls} />);
    await screen.findByText('Profile S-001');
    const asked = calls.list.mock.calls.length;
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2099-01-01' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a period whose end is not before its start.');
    expect(screen.queryByRole('button', { name: 'Export PDF' })).toBeNull();
    expect(calls.list.mock.calls.length).toBe(asked);
  });
});
