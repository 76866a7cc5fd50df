import * as Toast from '@radix-ui/react-toast';
import type { Notification } from '../../machines/notifications.machine';
import { NOTIFICATION_POSITIONS, type NotificationPosition, type NotificationType } from '../../machines/notification-constants';

const TYPE_LABEL: Record<NotificationType, string> = {
  positive: 'Success',
  negative: 'Error',
  warning: 'Warning',
  info: 'Information',
  ongoing: 'In progress',
};

function swipeDirection(position: NotificationPosition): 'left' | 'right' | 'up' | 'down' {
  if (position.endsWith('left') || position === 'left') return 'left';
  if (position.endsWith('right') || position === 'right') return 'right';
  return position.startsWith('top') ? 'up' : 'down';
}

interface ToasterProps {
  notifications: readonly Notification[];
  onDismiss(id: string): void;
}

/**
 * Draws the notifications machine's list with Radix Toast. The machine owns timing (spec 9), so
 * Radix's own timer is switched off; closing by button, Escape or swipe sends a dismiss.
 * Radix allows one viewport per provider, hence one provider per position in use.
 */
export function Toaster({ notifications, onDismiss }: ToasterProps) {
  return (
    <>
      {NOTIFICATION_POSITIONS.map((position) => {
        const here = notifications.filter((n) => n.position === position);
        if (here.length === 0) return null;
        return (
          <Toast.Provider key={position} duration={Infinity} swipeDirection={swipeDirection(position)} label="Notification">
            {here.map((n) => (
              <Toast.Root
                key={n.id}
                className={`toast toast--${n.type}`}
                open
                duration={Infinity}
                // Errors interrupt a screen reader; the rest wait their turn.
                type={n.type === 'negative' ? 'foreground' : 'background'}
                onOpenChange={(open) => {
                  if (!open) onDismiss(n.id);
                }}
              >
                <Toast.Title className="toast__title">
                  {n.type === 'ongoing' ? <span className="toast__spinner" aria-hidden="true" /> : null}
                  <span className="visually-hidden">{TYPE_LABEL[n.type]}: </span>
                  {n.message}
                </Toast.Title>
                {n.caption ? <Toast.Description className="toast__caption">{n.caption}</Toast.Description> : null}
                <Toast.Close className="toast__close" aria-label="Dismiss notification">
                  <span aria-hidden="true">×</span>
                </Toast.Close>
              </Toast.Root>
            ))}
            <Toast.Viewport className={`toast-viewport toast-viewport--${position}`} />
          </Toast.Provider>
        );
      })}
    </>
  );
}
