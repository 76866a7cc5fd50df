import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { CitationEdit } from './citation-edit';
import { citationsApi } from './citations-api';
import { CitationsTable } from './citations-table';

/** Citations (spec 2.7): the table and CitationsEdit, whose breadcrumb shows the title. */
export const citationsArea: FeatureArea = {
  views: {
    Citations: ({ params }: RouteViewProps) => createElement(CitationsTable, { orgId: params.orgId! }),
    CitationsEdit: ({ params }: RouteViewProps) => createElement(CitationEdit, { key: params.id, orgId: params.orgId!, id: params.id! }),
  },
  names: { CitationsEdit: async (api, id) => (await citationsApi(api).get(id)).title },
};
