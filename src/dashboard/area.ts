import { createElement } from 'react';
import type { FeatureArea } from '../app/feature-area';
import type { RouteViewProps } from '../app/route-view-props';
import { lazyPage } from '../app/lazy-page';

const DashboardPage = lazyPage(() => import('./dashboard-page'), 'DashboardPage');

/** The Dashboard (spec 2.2) at /{orgId}. */
export const dashboardArea: FeatureArea = {
  views: {
    Dashboard: ({ params }: RouteViewProps) => createElement(DashboardPage, { key: params.orgId, orgId: params.orgId! }),
  },
};
