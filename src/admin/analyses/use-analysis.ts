import { useEffect, useState } from 'react';
import type { Analysis, Constant } from '../../../core/schemas/analyses';
import { MAX_PAGE_SIZE } from '../../../core/schemas/list';
import { toEditorError, type EditorError } from '../../../machines/recordEditor.machine';
import type { AnalysesCalls } from './analyses-api';

export type AnalysisLoad =
  | { status: 'loading' }
  | { status: 'failed'; error: EditorError }
  | { status: 'loaded'; analysis: Analysis; constants: readonly Constant[] };

/** Reads the analysis a formula or constant belongs to, with its constants (for the help beside a formula). */
export function useAnalysis(analysisId: string, calls: AnalysesCalls): AnalysisLoad {
  const [state, setState] = useState<AnalysisLoad>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    const load = async () => {
      const analysis = await calls.get(analysisId);
      const constants = analysis.kind === 'Computational' ? (await calls.constants(analysisId, { pageSize: MAX_PAGE_SIZE })).items : [];
      return { analysis, constants };
    };
    load().then(
      (loaded) => current && setState({ status: 'loaded', ...loaded }),
      (err: unknown) => current && setState({ status: 'failed', error: toEditorError(err) }),
    );
    return () => {
      current = false;
    };
  }, [analysisId, calls]);
  return state;
}
