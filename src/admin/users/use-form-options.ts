import { useEffect, useState } from 'react';
import type { UserFormOptions } from '../../../core/schemas/users';
import type { UsersApi } from './users-api';

/** The roles and organizations the user form may offer: null while loading, 'failed' when the call failed. */
export function useFormOptions(calls: Pick<UsersApi, 'formOptions'>): UserFormOptions | 'failed' | null {
  const [options, setOptions] = useState<UserFormOptions | 'failed' | null>(null);
  useEffect(() => {
    let current = true;
    calls.formOptions().then(
      (loaded) => current && setOptions(loaded),
      () => current && setOptions('failed'),
    );
    return () => {
      current = false;
    };
  }, [calls]);
  return options;
}
