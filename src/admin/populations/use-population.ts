import { useEffect, useState } from 'react';
import type { Population } from '../../../core/schemas/populations';
import { toEditorError, type EditorError } from '../../../machines/recordEditor.machine';

export type PopulationLoad = { status: 'loading' } | { status: 'failed'; error: EditorError } | { status: 'loaded'; population: Population };

/** Reads one population for a screen that shows it but does not edit it. */
export function usePopulation(id: string, get: (id: string) => Promise<Population>): PopulationLoad {
  const [state, setState] = useState<PopulationLoad>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    get(id).then(
      (population) => current && setState({ status: 'loaded', population }),
      (err: unknown) => current && setState({ status: 'failed', error: toEditorError(err) }),
    );
    return () => {
      current = false;
    };
  }, [id, get]);
  return state;
}
