import { useCallback, useEffect, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { serverFieldErrors, type ServerFieldError } from '../../ui/form/server-field-errors';

/**
 * Keeps the field errors of the last failed save (a 400's `details`), so the form can show the
 * server's reasons beside the fields; `capture` wraps a save call and records them.
 */
export function useServerFieldErrors() {
  const [errors, setErrors] = useState<readonly ServerFieldError[]>([]);
  const capture = useCallback(async <T,>(call: Promise<T>): Promise<T> => {
    setErrors([]);
    try {
      return await call;
    } catch (err) {
      setErrors(serverFieldErrors(err));
      throw err;
    }
  }, []);
  return { errors, capture };
}

/** Placed inside a RecordForm: shows each server field error on the field its path names (`/expression` → expression). */
export function ServerFieldErrors({ errors }: { errors: readonly ServerFieldError[] }) {
  const { setError } = useFormContext();
  useEffect(() => {
    for (const e of errors) setError(e.path.replace(/^\//, '').replaceAll('/', '.'), { type: 'server', message: e.message });
  }, [errors, setError]);
  return null;
}
