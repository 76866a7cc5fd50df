import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { analysesApi } from '../analyses/analyses-api';
import { analysisGroupsApi } from './analysis-groups-api';
import { lazyPage } from '../../app/lazy-page';

const AnalysisEdit = lazyPage(() => import('../analyses/analysis-edit'), 'AnalysisEdit');
const ConstantEdit = lazyPage(() => import('../analyses/constant-edit'), 'ConstantEdit');
const FormulaEdit = lazyPage(() => import('../analyses/formula-edit'), 'FormulaEdit');
const AnalysisGroupEdit = lazyPage(() => import('./analysis-group-edit'), 'AnalysisGroupEdit');
const AnalysisGroupsTable = lazyPage(() => import('./analysis-groups-table'), 'AnalysisGroupsTable');

/**
 * Analysis groups (spec 2.7) and, under them, analyses, formulae and constants (spec 2.5 named edit
 * routes). Breadcrumbs show the group's and the analysis's name, a formula's allele expression and a
 * constant's name.
 */
export const analysisGroupsArea: FeatureArea = {
  views: {
    AnalysisGroups: ({ params }: RouteViewProps) => createElement(AnalysisGroupsTable, { orgId: params.orgId! }),
    AnalysisGroupEdit: ({ params }: RouteViewProps) =>
      createElement(AnalysisGroupEdit, { key: params.analysisGroupId, orgId: params.orgId!, analysisGroupId: params.analysisGroupId! }),
    AnalysisEdit: ({ params }: RouteViewProps) =>
      createElement(AnalysisEdit, { key: params.analysisId, orgId: params.orgId!, analysisGroupId: params.analysisGroupId!, analysisId: params.analysisId! }),
    FormulaEdit: ({ params }: RouteViewProps) =>
      createElement(FormulaEdit, {
        key: `${params.analysisId}/${params.formulaId}`,
        orgId: params.orgId!,
        analysisGroupId: params.analysisGroupId!,
        analysisId: params.analysisId!,
        formulaId: params.formulaId!,
      }),
    ConstantEdit: ({ params }: RouteViewProps) =>
      createElement(ConstantEdit, {
        key: `${params.analysisId}/${params.constantId}`,
        orgId: params.orgId!,
        analysisGroupId: params.analysisGroupId!,
        analysisId: params.analysisId!,
        constantId: params.constantId!,
      }),
  },
  names: {
    AnalysisGroupEdit: async (api, id) => (await analysisGroupsApi(api).get(id)).name,
    AnalysisEdit: async (api, id, params) => (await analysisGroupsApi(api).analysis(params.analysisGroupId!, id)).name,
    FormulaEdit: async (api, id, params) => (await analysesApi(api).formula(params.analysisId!, id)).pattern,
    ConstantEdit: async (api, id, params) => (await analysesApi(api).constant(params.analysisId!, id)).name,
  },
};
