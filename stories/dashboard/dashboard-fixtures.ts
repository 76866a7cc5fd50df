import type { Case } from '../../core/schemas/cases';
import type { Stats } from '../../core/schemas/stats';
import type { OrganizationMember, TaskRequest } from '../../core/schemas/task-requests';
import type { PanelData } from '../../src/dashboard/panel';
import type { TaskCalls } from '../../src/dashboard/task-requests-panel';
import { OSLO } from '../app/story-users';

const noop = () => undefined;

/** A panel's data in each of its states. */
export const loading = <T,>(): PanelData<T> => ({ status: 'loading', reload: noop });
export const failed = <T,>(): PanelData<T> => ({ status: 'failed', error: { status: 500, message: 'Your request failed. Please try again later.' }, reload: noop });
export const loaded = <T,>(value: T): PanelData<T> => ({ status: 'loaded', value, reload: noop });

const at = '2026-02-03T09:30:00.000Z';
const person = (id: string, name: string) => ({ id, name });

export const TASKS: TaskRequest[] = [
  {
    id: '7c1f5a52-3d0e-4c53-9a55-2b8f7e1f0a01',
    version: 1,
    organizationId: OSLO,
    organizationName: 'Oslo Lab',
    title: 'Re-run sample 7',
    description: 'Low signal at D18S51',
    status: 'open',
    requestedBy: person('1b0c2f6e-0000-4000-8000-000000000001', 'Ana Lyst'),
    assignedTo: person('1b0c2f6e-0000-4000-8000-000000000002', 'Rey Viewer'),
    case: { id: '5d1e9c1a-0000-4000-8000-000000000010', caseNumber: 'OSL-2026-0042' },
    dueDate: '2026-02-10',
    createdAt: at,
    updatedAt: at,
  },
  {
    id: '7c1f5a52-3d0e-4c53-9a55-2b8f7e1f0a02',
    version: 3,
    organizationId: OSLO,
    organizationName: 'Oslo Lab',
    title: 'Review the reference family',
    description: '',
    status: 'in-progress',
    requestedBy: person('1b0c2f6e-0000-4000-8000-000000000001', 'Ana Lyst'),
    assignedTo: null,
    case: null,
    dueDate: null,
    createdAt: at,
    updatedAt: at,
  },
];

export const CASES = [
  { id: '5d1e9c1a-0000-4000-8000-000000000010', caseNumber: 'OSL-2026-0042', caseTypeName: 'Homicide', status: 'Open', updatedAt: at },
  { id: '5d1e9c1a-0000-4000-8000-000000000011', caseNumber: 'OSL-2026-0041', caseTypeName: 'Burglary', status: 'Closed', updatedAt: '2026-01-28T14:00:00.000Z' },
] as Case[];

export const MEMBERS: OrganizationMember[] = [
  { id: '1b0c2f6e-0000-4000-8000-000000000001', name: 'Ana Lyst', email: 'ana@oslo.example', roleName: 'Analyst' },
  { id: '1b0c2f6e-0000-4000-8000-000000000002', name: 'Rey Viewer', email: 'rey@oslo.example', roleName: 'Reviewer' },
];

export const STATS: Stats[] = [
  {
    key: 'profiles-by-kind-status',
    title: 'Profiles by kind and status',
    rowLabel: 'Kind',
    series: ['pending', 'approved', 'rejected'],
    rows: [
      { label: 'Autosomal', counts: { pending: 12, approved: 140, rejected: 3 } },
      { label: 'Y-STR', counts: { pending: 2, approved: 31, rejected: 0 } },
    ],
  },
  {
    key: 'hits-by-status-over-time',
    title: 'Hits by status per week',
    rowLabel: 'Week',
    series: ['pending', 'published', 'rejected'],
    rows: [
      { label: '2026-W04', counts: { pending: 3, published: 1, rejected: 0 } },
      { label: '2026-W05', counts: { pending: 5, published: 2, rejected: 1 } },
      { label: '2026-W06', counts: { pending: 2, published: 4, rejected: 1 } },
    ],
  },
  { key: 'task-requests-by-status', title: 'Task requests by status', rowLabel: 'Task requests', series: ['open', 'in-progress', 'done', 'cancelled'], rows: [{ label: 'Task requests', counts: { open: 1, 'in-progress': 1, done: 6, cancelled: 1 } }] },
];

/** Task calls that answer after a moment, as a slow server would, and change nothing. */
export const STORY_TASK_CALLS: TaskCalls = {
  save: async (values, task) => ({ ...(task ?? TASKS[0]!), ...values, assignedTo: null, case: null }),
  move: async (task, status) => ({ ...task, status, version: task.version + 1 }),
  loadOptions: async () => ({ members: MEMBERS.map((m) => ({ value: m.id, label: m.name })), cases: CASES.map((c) => ({ value: c.id, label: c.caseNumber })) }),
};
