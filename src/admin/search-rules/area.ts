import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { searchRulesApi } from './search-rules-api';
import { lazyPage } from '../../app/lazy-page';

const SearchRuleEdit = lazyPage(() => import('./search-rule-edit'), 'SearchRuleEdit');
const SearchRulesTable = lazyPage(() => import('./search-rules-table'), 'SearchRulesTable');

/** Search rules (ARCHITECTURE.md "Search policy"): the table and the rule form; the breadcrumb shows the rule's name. */
export const searchRulesArea: FeatureArea = {
  views: {
    SearchRules: ({ params }: RouteViewProps) => createElement(SearchRulesTable, { orgId: params.orgId! }),
    SearchRulesEdit: ({ params }: RouteViewProps) => createElement(SearchRuleEdit, { key: params.id, orgId: params.orgId!, id: params.id! }),
  },
  names: { SearchRulesEdit: async (api, id) => (await searchRulesApi(api).get(id)).name },
};
