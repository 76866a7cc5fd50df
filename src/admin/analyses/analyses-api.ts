import type { Analysis, AnalysisInput, Constant, ConstantInput, Formula, FormulaInput } from '../../../core/schemas/analyses';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/unwrap';

type Versioned<T> = T & { version: number };

/** The calls of the analysis, formula and constant screens (server/http/analyses). */
export function analysesApi(api: ApiClient) {
  const item = (id: string) => ({ params: { path: { id } } });
  const formula = (id: string, formulaId: string) => ({ params: { path: { id, formulaId } } });
  const constant = (id: string, constantId: string) => ({ params: { path: { id, constantId } } });
  return {
    get: (id: string): Promise<Analysis> => unwrap(api.GET('/api/analyses/{id}', item(id))),
    add: (body: AnalysisInput & { analysisGroupId: string }): Promise<Analysis> => unwrap(api.POST('/api/analyses', { body })),
    update: (id: string, body: Versioned<AnalysisInput>): Promise<Analysis> => unwrap(api.PUT('/api/analyses/{id}', { ...item(id), body })),
    remove: (id: string): Promise<void> => unwrap(api.DELETE('/api/analyses/{id}', item(id))).then(() => undefined),

    formulae: (id: string, query: ListQueryInput): Promise<ListResult<Formula>> =>
      unwrap(api.GET('/api/analyses/{id}/formulae', { params: { path: { id }, query } })),
    formula: (id: string, formulaId: string): Promise<Formula> => unwrap(api.GET('/api/analyses/{id}/formulae/{formulaId}', formula(id, formulaId))),
    addFormula: (id: string, body: FormulaInput): Promise<Formula> => unwrap(api.POST('/api/analyses/{id}/formulae', { ...item(id), body })),
    updateFormula: (id: string, formulaId: string, body: Versioned<FormulaInput>): Promise<Formula> =>
      unwrap(api.PUT('/api/analyses/{id}/formulae/{formulaId}', { ...formula(id, formulaId), body })),
    removeFormula: (id: string, formulaId: string): Promise<void> =>
      unwrap(api.DELETE('/api/analyses/{id}/formulae/{formulaId}', formula(id, formulaId))).then(() => undefined),

    constants: (id: string, query: ListQueryInput): Promise<ListResult<Constant>> =>
      unwrap(api.GET('/api/analyses/{id}/constants', { params: { path: { id }, query } })),
    constant: (id: string, constantId: string): Promise<Constant> => unwrap(api.GET('/api/analyses/{id}/constants/{constantId}', constant(id, constantId))),
    addConstant: (id: string, body: ConstantInput): Promise<Constant> => unwrap(api.POST('/api/analyses/{id}/constants', { ...item(id), body })),
    updateConstant: (id: string, constantId: string, body: Versioned<ConstantInput>): Promise<Constant> =>
      unwrap(api.PUT('/api/analyses/{id}/constants/{constantId}', { ...constant(id, constantId), body })),
    removeConstant: (id: string, constantId: string): Promise<void> =>
      unwrap(api.DELETE('/api/analyses/{id}/constants/{constantId}', constant(id, constantId))).then(() => undefined),
  };
}

export type AnalysesCalls = ReturnType<typeof analysesApi>;
