import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { markerApi } from './marker-api';
import { lazyPage } from '../../app/lazy-page';

const MarkerEdit = lazyPage(() => import('./marker-edit'), 'MarkerEdit');
const MarkersTable = lazyPage(() => import('./markers-table'), 'MarkersTable');

/** Markers (spec 2.7): the table and the marker form; the breadcrumb shows the marker's name. */
export const markersArea: FeatureArea = {
  views: {
    Markers: ({ params }: RouteViewProps) => createElement(MarkersTable, { orgId: params.orgId! }),
    MarkersEdit: ({ params }: RouteViewProps) => createElement(MarkerEdit, { key: params.id, orgId: params.orgId!, id: params.id! }),
  },
  names: { MarkersEdit: async (api, id) => (await markerApi(api).get(id)).name },
};
