import { useCallback, useEffect, useState } from 'react';
import type { Case } from '../../core/schemas/cases';
import { toEditorError, type EditorError } from '../../machines/recordEditor.machine';

export type CaseLoad = { status: 'loading' } | { status: 'failed'; error: EditorError } | { status: 'loaded'; record: Case };

/**
 * Reads the case a case view shows, once for all its tabs. `reload` reads it again (after a
 * conflict); `replace` takes a call's answer (after the settings are saved).
 */
export function useCase(caseId: string, get: (id: string) => Promise<Case>) {
  const [state, setState] = useState<CaseLoad>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current = true;
    get(caseId).then(
      (record) => current && setState({ status: 'loaded', record }),
      (err: unknown) => current && setState({ status: 'failed', error: toEditorError(err) }),
    );
    return () => {
      current = false;
    };
  }, [caseId, get, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const replace = useCallback((record: Case) => setState({ status: 'loaded', record }), []);
  return { state, reload, replace };
}
