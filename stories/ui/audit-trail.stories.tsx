import type { Meta, StoryObj } from '@storybook/react-vite';
import type { AuditEntry } from '../../core/schemas/audit';
import { AuditTrail } from '../../src/ui/audit-trail/audit-trail';

const ANN = '0190a1b2-0000-7000-8000-000000000001';
const HOMICIDE = '0190a1b2-0000-7000-8000-000000000002';
const base = { userName: 'Ann Analyst', recordName: null, before: null, after: null, names: {}, hash: 'h' };

/** A case's trail as a reader reads it (issue 18): record names, field labels, Yes/No, local times, ids as names. */
const ROWS: AuditEntry[] = [
  { ...base, seq: 4, at: '2026-11-27T10:02:00Z', userName: 'Rita Reviewer', entity: 'Profile', entityId: 'p1', recordName: 'S-001', action: 'Approved', before: { status: 'pending', reviewComments: '' }, after: { status: 'approved', reviewComments: 'Checked twice' } },
  { ...base, seq: 3, at: '2026-11-27T09:40:00Z', entity: 'PhysicalItem', entityId: 'i1', recordName: 'ITEM-7', action: 'Edited', before: { collectedAt: null, collectionPlace: '' }, after: { collectedAt: '2026-11-20T13:30:00Z', collectionPlace: 'Kitchen' } },
  { ...base, seq: 2, at: '2026-11-27T09:31:00Z', entity: 'InvolvedParty', entityId: 'v1', recordName: 'Jane Doe', action: 'Added', after: { title: 'Victim', role: 'victim', name: 'Jane Doe', identifiers: [{ kind: 'Passport', value: 'N1234567' }] } },
  { ...base, seq: 1, at: '2026-11-27T09:30:00Z', entity: 'Case', entityId: 'c1', recordName: 'AUD-2026-1', action: 'Added', after: { caseNumber: 'AUD-2026-1', caseTypeId: HOMICIDE, assignedUsers: [{ id: ANN, name: 'Ann Analyst' }] }, names: { [HOMICIDE]: 'Homicide', [ANN]: 'Ann Analyst' } },
];

const meta = {
  title: 'UI/Audit trail',
  component: AuditTrail,
  args: { label: 'Case audit trail', load: async () => ({ items: ROWS, count: ROWS.length }) },
} satisfies Meta<typeof AuditTrail>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Readable: Story = {};
export const WithExports: Story = { args: { onExport: async (format) => `Audit_trail_case_AUD-2026-1.${format}` } };
export const Empty: Story = { args: { load: async () => ({ items: [], count: 0 }) } };
