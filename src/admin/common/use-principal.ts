import { useMemo } from 'react';
import type { Principal } from '../../../core/permissions';
import { principalOf } from '../../app/principal';
import { useShellSession } from '../../app/shell-session';

/** The signed-in user as core/permissions.ts sees them, for showing or hiding actions. */
export function usePrincipal(): Principal {
  const { me } = useShellSession();
  return useMemo(() => principalOf(me), [me]);
}
