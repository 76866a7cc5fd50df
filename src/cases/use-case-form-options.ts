import { useCallback, useEffect, useState } from 'react';
import type { CaseCalls, CaseFormOptions } from './cases-api';

export interface CaseFormChoices extends CaseFormOptions {
  /** The organization `users` belong to (null: none chosen yet). */
  usersOf: string | null;
}

/**
 * The case form's options, read again (for the users) whenever the chosen organization changes.
 * null until the first answer, 'failed' when that failed; later reads keep the last answer meanwhile.
 * `organizationId` undefined waits (the record is still loading).
 */
export function useCaseFormOptions(calls: Pick<CaseCalls, 'formOptions'>, organizationId: string | undefined) {
  const [choices, setChoices] = useState<CaseFormChoices | 'failed' | null>(null);
  useEffect(() => {
    if (organizationId === undefined) return;
    let current = true;
    const of = organizationId || null;
    calls.formOptions(of).then(
      (options) => current && setChoices({ ...options, usersOf: of }),
      () => current && setChoices((before) => (before && before !== 'failed' ? before : 'failed')),
    );
    // A late answer for an organization no longer chosen must not replace the current one.
    return () => {
      current = false;
    };
  }, [calls, organizationId]);

  /** Puts a case type or organization added from the form among the options. */
  const added = useCallback((list: 'caseTypes' | 'organizations', record: { id: string; name: string }) => {
    setChoices((before) =>
      before && before !== 'failed' ? { ...before, [list]: [...before[list], record].sort((a, b) => a.name.localeCompare(b.name)) } : before,
    );
  }, []);
  return { choices, added };
}
