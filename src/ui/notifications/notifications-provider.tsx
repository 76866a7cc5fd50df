import { useCallback, useEffect, type ReactNode } from 'react';
import { createActorContext } from '@xstate/react';
import { notificationsMachine, type NotificationRequest } from '../../../machines/notifications.machine';
import { Toaster } from '../toaster';

/** The app's one notifications actor, shared by everything that wants to tell the user something. */
export const NotificationsContext = createActorContext(notificationsMachine);

function ConnectedToaster() {
  const notifications = NotificationsContext.useSelector((s) => s.context.notifications);
  const actor = NotificationsContext.useActorRef();
  const dismiss = useCallback((id: string) => actor.send({ type: 'notification.dismiss', id }), [actor]);
  // A refused request is a programming error (e.g. a negative timeout): make it visible to developers.
  useEffect(() => {
    const subscription = actor.on('notification.rejected', (e) => console.error(`Notification refused: ${e.error}`));
    return () => subscription.unsubscribe();
  }, [actor]);
  return <Toaster notifications={notifications} onDismiss={dismiss} />;
}

type ProviderOptions = Parameters<typeof NotificationsContext.Provider>[0]['options'];

export function NotificationsProvider({ children, options }: { children: ReactNode; options?: ProviderOptions }) {
  return (
    <NotificationsContext.Provider {...(options ? { options } : {})}>
      {children}
      <ConnectedToaster />
    </NotificationsContext.Provider>
  );
}

/** Shows a notification; see NotificationRequest for the defaults of spec 9. */
export function useNotify(): (request: NotificationRequest) => void {
  const actor = NotificationsContext.useActorRef();
  return useCallback((notification: NotificationRequest) => actor.send({ type: 'notification.show', notification }), [actor]);
}
