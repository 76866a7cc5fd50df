import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect } from 'react';
import { notificationsMachine, type NotificationRequest } from '../../machines/notifications.machine';
import { NOTIFICATION_POSITIONS } from '../../machines/notification-constants';
import { NotificationsContext, NotificationsProvider, useNotify } from '../../src/ui/notifications/notifications-provider';

/** Sends the given requests once, then offers a button to send them again. */
function Sender({ requests }: { requests: readonly NotificationRequest[] }) {
  const notify = useNotify();
  const rejection = NotificationsContext.useSelector((s) => s.context.rejection);
  const state = NotificationsContext.useSelector((s) => String(s.value));
  useEffect(() => {
    for (const r of requests) notify(r);
  }, [notify, requests]);
  return (
    <div style={{ padding: '2rem' }}>
      <p>
        Machine state: <strong>{state}</strong>
      </p>
      {rejection ? (
        <p className="notice notice--negative" role="alert">
          Refused: {rejection}
        </p>
      ) : null}
      <button type="button" className="button button--primary" onClick={() => requests.forEach(notify)}>
        Show again
      </button>
    </div>
  );
}

function NotificationsDemo({ requests }: { requests: readonly NotificationRequest[] }) {
  return (
    <NotificationsProvider>
      <Sender requests={requests} />
    </NotificationsProvider>
  );
}

const meta = { title: 'Machines/Notifications', component: NotificationsDemo } satisfies Meta<typeof NotificationsDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** idle: nothing on screen. */
export const Idle: Story = { args: { requests: [] } };

/** showing, one of each type (ongoing stays until replaced or dismissed). */
export const EachType: Story = {
  args: {
    requests: [
      { type: 'positive', message: 'Profile approved', timeout: 0 },
      { type: 'negative', message: 'You do not have permission to perform this action.', timeout: 0 },
      { type: 'warning', message: 'Two markers were skipped', caption: 'D2S1338 and D19S433 are not in the chemistry.', timeout: 0 },
      { type: 'info', message: 'Hit downloaded', timeout: 0 },
      { type: 'ongoing', message: 'Importing profiles…' },
    ],
  },
};

/** showing at the default position (bottom) with the default 5000 ms timeout, then back to idle after 6 s. */
export const DefaultTimeout: Story = { args: { requests: [{ message: 'Case saved' }] } };

/** showing: a sticky notification (timeout 0) waits for the user. */
export const Sticky: Story = { args: { requests: [{ type: 'warning', message: 'The session expires soon', timeout: 0 }] } };

/** Every valid position at once. */
export const Positions: Story = {
  args: { requests: NOTIFICATION_POSITIONS.map((position) => ({ id: position, message: position, position, timeout: 0 })) },
};

/** idle with a refusal: a negative timeout is rejected with a clear error and nothing is shown. */
export const RejectedNegativeTimeout: Story = { args: { requests: [{ message: 'Never shown', timeout: -1 }] } };

/** showing, started from a snapshot (how other stories can begin in this state). */
export const FromSnapshot: Story = {
  args: { requests: [] },
  render: () => (
    <NotificationsProvider
      options={{
        snapshot: notificationsMachine.resolveState({
          value: 'showing',
          context: {
            notifications: [{ id: 'restored', type: 'info', message: 'Restored from a snapshot', position: 'bottom', timeout: 0 }],
            nextId: 2,
            rejection: null,
          },
        }),
      }}
    >
      <Sender requests={[]} />
    </NotificationsProvider>
  ),
};
