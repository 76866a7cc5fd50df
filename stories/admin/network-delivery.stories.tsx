/** The network delivery screen (src/admin/network/delivery-page.tsx) over fake calls: the upload outbox's states. */
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { OutboxEntry, OutboxList } from '../../core/schemas/network-delivery';
import { ApiError } from '../../src/api/middleware/api-error';
import { NetworkDeliveryView, type DeliveryCalls } from '../../src/admin/network/delivery-page';
import { StoryRouter } from '../app/story-router';
import { OSLO } from '../app/story-users';

const at = '2026-11-29T03:30:00.000Z';
const entry = (n: number, over: Partial<OutboxEntry>): OutboxEntry => ({
  id: `50000000-0000-4000-8000-00000000000${n}`,
  action: 'upload',
  profileId: `60000000-0000-4000-8000-00000000000${n}`,
  laboratory: 'Oslo Lab',
  specimenId: `STAIN-${n}`,
  createdAt: at,
  attempts: 1,
  nextAttemptAt: null,
  lastError: null,
  state: 'waiting',
  deliveredAt: null,
  ...over,
});

const BACKLOG: OutboxList = {
  items: [
    entry(1, { state: 'failed', lastError: 'Profile STAIN-1: this level has no kit HomeBrew 24; add the kit here before the laboratory sends profiles typed with it' }),
    entry(2, { state: 'retrying', attempts: 3, lastError: 'The upper instance at https://sdis.example.gov could not be reached (connect ECONNREFUSED)', nextAttemptAt: '2026-11-29T03:32:00.000Z' }),
    entry(3, { action: 'delete', state: 'waiting', attempts: 0 }),
    entry(4, { state: 'delivered', deliveredAt: '2026-11-29T03:31:00.000Z' }),
  ],
  backlog: { waiting: 2, retrying: 1, failed: 1, oldestWaitingSeconds: 240 },
};
const EMPTY: OutboxList = { items: [], backlog: { waiting: 0, retrying: 0, failed: 0, oldestWaitingSeconds: null } };

const never = () => new Promise<never>(() => undefined);
const calls = (list: OutboxList, over: Partial<DeliveryCalls> = {}): DeliveryCalls => ({
  outbox: async () => list,
  deliverNow: async () => list,
  retry: async (id) => ({ ...list.items.find((i) => i.id === id)!, state: 'retrying' }),
  ...over,
});

const screen = (c: DeliveryCalls) => (
  <StoryRouter path={`/${OSLO}/network/delivery`}>
    <div style={{ padding: '1rem' }}>
      <NetworkDeliveryView calls={c} />
    </div>
  </StoryRouter>
);

const meta = { title: 'Admin/Network delivery', parameters: { layout: 'fullscreen' } } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** Waiting, retrying after an unreachable upper instance, refused (with the reason and Retry) and delivered entries. */
export const Backlog: Story = { render: () => screen(calls(BACKLOG)) };
/** Nothing sent yet. */
export const Empty: Story = { render: () => screen(calls(EMPTY)) };
/** The outbox still loading. */
export const Loading: Story = { render: () => screen(calls(EMPTY, { outbox: never })) };
/** Deliver now failed: the server's message above the table. */
export const DeliverFailed: Story = {
  render: () => screen(calls(BACKLOG, { deliverNow: async () => Promise.reject(new ApiError(403, { error: 'Not permitted' }, 'POST', '/api/network/outbox/deliver')) })),
};
