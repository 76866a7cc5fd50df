import type { LiveStatus } from './organization-events';

/** Says, while the event stream is reconnecting, that the lists on the page may be behind (they still read on their own). */
export function LiveStatusNote({ status }: { status: LiveStatus }) {
  if (status !== 'reconnecting') return null;
  return (
    <p className="notice notice--warning" role="status">
      Live updates are interrupted; reconnecting. Changes made by others may show late.
    </p>
  );
}
