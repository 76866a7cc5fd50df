import type { ComponentType } from 'react';
import { FEATURE_AREAS } from './feature-areas';
import { ComingPage } from './pages/coming-page';
import type { RouteViewProps } from './route-view-props';
import { routes, type RouteName } from './routes';

export type { RouteViewProps } from './route-view-props';

/**
 * The screen of each route. Features add themselves here as they are built; every other route
 * shows the honest "coming" page.
 */
const VIEWS: Partial<Record<RouteName, ComponentType<RouteViewProps>>> = Object.assign({}, ...FEATURE_AREAS.map((area) => area.views));

export function RouteView({ route, params }: RouteViewProps) {
  const View = VIEWS[route.name];
  if (View) return <View route={route} params={params} />;
  const dashboardHref = route.name === 'Dashboard' || !params.orgId ? undefined : routes.Dashboard.href({ orgId: params.orgId });
  return <ComingPage title={route.title} dashboardHref={dashboardHref} />;
}
