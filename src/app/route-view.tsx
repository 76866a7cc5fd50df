import type { ComponentType } from 'react';
import { ComingPage } from './pages/coming-page';
import { routes, type AppRoute, type RouteName } from './routes';

export interface RouteViewProps {
  route: AppRoute;
  params: Readonly<Record<string, string>>;
}

/**
 * The screen of each route. Features add themselves here as they are built; every other route
 * shows the honest "coming" page.
 */
const VIEWS: Partial<Record<RouteName, ComponentType<RouteViewProps>>> = {};

export function RouteView({ route, params }: RouteViewProps) {
  const View = VIEWS[route.name];
  if (View) return <View route={route} params={params} />;
  const dashboardHref = route.name === 'Dashboard' || !params.orgId ? undefined : routes.Dashboard.href({ orgId: params.orgId });
  return <ComingPage title={route.title} dashboardHref={dashboardHref} />;
}
