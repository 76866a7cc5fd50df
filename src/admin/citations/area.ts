import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { citationsApi } from './citations-api';
import { lazyPage } from '../../app/lazy-page';

const CitationEdit = lazyPage(() => import('./citation-edit'), 'CitationEdit');
const CitationsTable = lazyPage(() => import('./citations-table'), 'CitationsTable');

/** Citations (spec 2.7): the table and CitationsEdit, whose breadcrumb shows the title. */
export const citationsArea: FeatureArea = {
  views: {
    Citations: ({ params }: RouteViewProps) => createElement(CitationsTable, { orgId: params.orgId! }),
    CitationsEdit: ({ params }: RouteViewProps) => createElement(CitationEdit, { key: params.id, orgId: params.orgId!, id: params.id! }),
  },
  names: { CitationsEdit: async (api, id) => (await citationsApi(api).get(id)).title },
};
