import { assign, cancel, enqueueActions, setup } from 'xstate';
import {
  DEFAULT_NOTIFICATION_POSITION,
  DEFAULT_NOTIFICATION_TIMEOUT_MS,
  DEFAULT_NOTIFICATION_TYPE,
  DISMISS_GRACE_MS,
  NOTIFICATION_POSITIONS,
  NOTIFICATION_TYPES,
  STICKY_TIMEOUT,
  type NotificationPosition,
  type NotificationType,
} from './notification-constants';

/**
 * The notifications of product-spec section 9: a queue of toasts, each dismissed by the user or
 * `timeout + 1000` ms after it appears (0 = sticky). Pure: timing is expressed as delayed events, so
 * the clock is the actor system's (fake timers or SimulatedClock in tests).
 */

/** What a caller asks for; everything but the message has a default. */
export interface NotificationRequest {
  /** Reusing the id of a shown notification replaces it (e.g. an ongoing one that finished). */
  id?: string;
  type?: NotificationType;
  message: string;
  caption?: string;
  position?: NotificationPosition;
  /** Milliseconds; 0 keeps it until dismissed. Must be a non-negative number. */
  timeout?: number;
}

export interface Notification {
  id: string;
  type: NotificationType;
  message: string;
  caption?: string;
  position: NotificationPosition;
  timeout: number;
}

export interface NotificationsContext {
  notifications: Notification[];
  /** Counter for generated ids; kept in context so the machine stays deterministic. */
  nextId: number;
  /** Why the last request was refused; cleared by the next accepted one. */
  rejection: string | null;
}

export type NotificationsEvent =
  | { type: 'notification.show'; notification: NotificationRequest }
  | { type: 'notification.dismiss'; id: string }
  /** Raised by the machine itself when a notification's time is up. */
  | { type: 'notification.expire'; id: string };

export type NotificationsEmitted = { type: 'notification.rejected'; error: string };

/** Returns why a request cannot be shown, or null when it can. */
export function validateNotification(request: NotificationRequest): string | null {
  if (typeof request.message !== 'string' || request.message.trim() === '') {
    return 'A notification needs a message.';
  }
  if (request.type !== undefined && !NOTIFICATION_TYPES.includes(request.type)) {
    return `Unknown notification type "${String(request.type)}"; expected one of ${NOTIFICATION_TYPES.join(', ')}.`;
  }
  if (request.position !== undefined && !NOTIFICATION_POSITIONS.includes(request.position)) {
    return `Unknown notification position "${String(request.position)}"; expected one of ${NOTIFICATION_POSITIONS.join(', ')}.`;
  }
  if (request.timeout !== undefined && !(Number.isFinite(request.timeout) && request.timeout >= 0)) {
    return `Notification timeout must be a non-negative number of milliseconds (0 = sticky); got ${String(request.timeout)}.`;
  }
  return null;
}

/**
 * Applies the defaults of spec 9. An ongoing notification reports work still under way, so unless
 * told otherwise it stays until replaced or dismissed rather than vanishing after 5 s.
 */
export function normalizeNotification(request: NotificationRequest, id: string): Notification {
  const type = request.type ?? DEFAULT_NOTIFICATION_TYPE;
  const defaultTimeout = type === 'ongoing' ? STICKY_TIMEOUT : DEFAULT_NOTIFICATION_TIMEOUT_MS;
  return {
    id,
    type,
    message: request.message,
    ...(request.caption !== undefined ? { caption: request.caption } : {}),
    position: request.position ?? DEFAULT_NOTIFICATION_POSITION,
    timeout: request.timeout ?? defaultTimeout,
  };
}

/** Delay between showing and dismissing; undefined for sticky notifications. */
export const dismissDelay = (n: Notification): number | undefined =>
  n.timeout === STICKY_TIMEOUT ? undefined : n.timeout + DISMISS_GRACE_MS;

const idFor = (context: NotificationsContext, request: NotificationRequest) => request.id ?? `notification-${context.nextId}`;

export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
    emitted: {} as NotificationsEmitted,
  },
  guards: {
    requestValid: ({ event }) => event.type === 'notification.show' && validateNotification(event.notification) === null,
    noneLeft: ({ context }) => context.notifications.length === 0,
  },
  actions: {
    showNotification: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'notification.show') return;
      const id = idFor(context, event.notification);
      const notification = normalizeNotification(event.notification, id);
      // A replaced notification must not be dismissed by the timer of its predecessor.
      enqueue.cancel(id);
      enqueue.assign({
        notifications: [...context.notifications.filter((n) => n.id !== id), notification],
        nextId: context.nextId + 1,
        rejection: null,
      });
      const delay = dismissDelay(notification);
      if (delay !== undefined) enqueue.raise({ type: 'notification.expire', id }, { id, delay });
    }),
    rejectNotification: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'notification.show') return;
      const error = validateNotification(event.notification) ?? 'Notification refused.';
      enqueue.assign({ rejection: error });
      enqueue.emit({ type: 'notification.rejected', error });
    }),
    cancelExpiry: cancel(({ event }) => (event.type === 'notification.dismiss' ? event.id : '')),
    removeNotification: assign({
      notifications: ({ context, event }) =>
        event.type === 'notification.show' ? context.notifications : context.notifications.filter((n) => n.id !== event.id),
    }),
  },
}).createMachine({
  id: 'notifications',
  context: { notifications: [], nextId: 1, rejection: null },
  initial: 'idle',
  on: {
    'notification.show': [
      { guard: 'requestValid', target: '.showing', actions: 'showNotification' },
      { actions: 'rejectNotification' },
    ],
  },
  states: {
    /** Nothing on screen. */
    idle: {},
    /** At least one notification on screen. */
    showing: {
      always: { guard: 'noneLeft', target: 'idle' },
      on: {
        'notification.dismiss': { actions: ['cancelExpiry', 'removeNotification'] },
        'notification.expire': { actions: 'removeNotification' },
      },
    },
  },
});
