import { useMemo } from 'react';
import type { Principal } from '../../core/permissions';
import { principalOf } from './principal';
import { useShellSession } from './shell-session';

/** The signed-in user as core/permissions.ts sees them, for showing or hiding actions. */
export function usePrincipal(): Principal {
  const { me } = useShellSession();
  return useMemo(() => principalOf(me), [me]);
}
