/**
 * /authentication/silent-renew, loaded in a hidden iframe by signinSilent when there is no refresh token:
 * hands the provider's response to the parent window and shows nothing.
 */
import { useEffect, useRef } from 'react';
import { completeSilentRenew } from '../session-actors';

export function SilentRenewPage({ complete = completeSilentRenew }: { complete?: () => Promise<void> }) {
  const started = useRef(false);
  useEffect(() => {
    // Once per frame, even when React runs effects twice: the parent listens for one answer.
    if (started.current) return;
    started.current = true;
    // The parent window times out on its own; the frame can only log.
    complete().catch((error: unknown) => console.error('[session] Silent renew callback failed', error));
  }, [complete]);
  return null;
}
