import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { AnalysisGroupEdit } from './analysis-group-edit';
import { analysisGroupsApi } from './analysis-groups-api';
import { AnalysisGroupsTable } from './analysis-groups-table';

/**
 * Analysis groups (spec 2.7): the table and AnalysisGroupEdit. Breadcrumbs show the group's and the
 * analysis's name; AnalysisEdit itself stays the coming page until the genetics issue builds it.
 */
export const analysisGroupsArea: FeatureArea = {
  views: {
    AnalysisGroups: ({ params }: RouteViewProps) => createElement(AnalysisGroupsTable, { orgId: params.orgId! }),
    AnalysisGroupEdit: ({ params }: RouteViewProps) =>
      createElement(AnalysisGroupEdit, { key: params.analysisGroupId, orgId: params.orgId!, analysisGroupId: params.analysisGroupId! }),
  },
  names: {
    AnalysisGroupEdit: async (api, id) => (await analysisGroupsApi(api).get(id)).name,
    AnalysisEdit: async (api, id, params) => (await analysisGroupsApi(api).analysis(params.analysisGroupId!, id)).name,
  },
};
