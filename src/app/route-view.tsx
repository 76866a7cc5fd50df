import type { ComponentType } from 'react';
import { FEATURE_AREAS } from './feature-areas';
import { NotFoundPage } from './pages/not-found-page';
import type { RouteViewProps } from './route-view-props';
import { routes, type RouteName } from './routes';

export type { RouteViewProps } from './route-view-props';

/** The screen of each route, from the feature areas (every route of spec 2 has one). */
export const VIEWS: Partial<Record<RouteName, ComponentType<RouteViewProps>>> = Object.assign({}, ...FEATURE_AREAS.map((area) => area.views));

export function RouteView({ route, params }: RouteViewProps) {
  const View = VIEWS[route.name];
  if (View) return <View route={route} params={params} />;
  // Only the sign-in routes have no screen here; they never reach an organization's layout.
  return <NotFoundPage homeHref={params.orgId ? routes.Dashboard.href({ orgId: params.orgId }) : '/'} />;
}
