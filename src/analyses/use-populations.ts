import { useEffect, useState } from 'react';
import type { Population } from '../../core/schemas/populations';
import type { ProfileKind } from '../../core/schemas/profiles';
import type { CalculatorCalls } from './calculator-api';

/** The populations a calculator offers (those of `kind` the user may use in `orgId`): null while read, and whether reading failed. */
export function usePopulations(calls: CalculatorCalls, orgId: string, kind: ProfileKind, wanted = true): { populations: Population[] | null; failed: boolean } {
  const [populations, setPopulations] = useState<Population[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    calls.populations(orgId, kind).then(
      (list) => current && setPopulations(list.items),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [calls, orgId, kind, wanted]);
  return { populations: failed ? [] : populations, failed };
}
