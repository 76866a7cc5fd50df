/**
 * Notification constants of product-spec section 9. The machine validates against these lists and
 * the toaster styles by them, so the values live in one place.
 */

export const NOTIFICATION_TYPES = ['positive', 'negative', 'warning', 'info', 'ongoing'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_POSITIONS = [
  'top-left',
  'top-right',
  'bottom-left',
  'bottom-right',
  'top',
  'bottom',
  'left',
  'right',
  'center',
] as const;
export type NotificationPosition = (typeof NOTIFICATION_POSITIONS)[number];

export const DEFAULT_NOTIFICATION_POSITION: NotificationPosition = 'bottom';
export const DEFAULT_NOTIFICATION_TYPE: NotificationType = 'info';

/** Milliseconds a notification stays up when the caller gives no timeout; 0 means sticky. */
export const DEFAULT_NOTIFICATION_TIMEOUT_MS = 5000;
export const STICKY_TIMEOUT = 0;

/** Added to every timeout before dismissal, so the enter animation does not eat into reading time. */
export const DISMISS_GRACE_MS = 1000;
