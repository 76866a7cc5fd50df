import { createContext, useContext, type ReactNode } from 'react';
import type { Me } from '../../core/schemas/me';
import type { BreadcrumbNameLookup } from './layout/breadcrumb-bar';

/**
 * What the signed-in part of the app needs from the session. The session bridge fills it from
 * src/auth; tests and stories provide it directly.
 */
export interface ShellSession {
  me: Me;
  signOut(): void;
  /** POST /api/accept-licenses, then tells the session. */
  acceptLicences(): Promise<void>;
  /** Names of records in breadcrumbs; without it the ids are shown. */
  lookupName?: BreadcrumbNameLookup;
  /** Shown beside Sign out (Change password); tests and stories may leave it out. */
  accountActions?: ReactNode;
}

export const ShellSessionContext = createContext<ShellSession | null>(null);

export function useShellSession(): ShellSession {
  const session = useContext(ShellSessionContext);
  if (!session) throw new Error('useShellSession needs a ShellSessionContext provider (SessionBridge, or a test or story)');
  return session;
}
