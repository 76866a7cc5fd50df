import { Suspense, type ComponentType } from 'react';
import { FEATURE_AREAS } from './feature-areas';
import { NotFoundPage } from './pages/not-found-page';
import type { RouteViewProps } from './route-view-props';
import { routes, type RouteName } from './routes';

export type { RouteViewProps } from './route-view-props';

/** The screen of each route, from the feature areas (every route of spec 2 has one). */
export const VIEWS: Partial<Record<RouteName, ComponentType<RouteViewProps>>> = Object.assign({}, ...FEATURE_AREAS.map((area) => area.views));

/** Shown in the page's place while its code downloads. */
export function PageLoading() {
  return (
    <p role="status" aria-busy="true">
      Loading…
    </p>
  );
}

export function RouteView({ route, params }: RouteViewProps) {
  const View = VIEWS[route.name];
  if (View) {
    // Each page is its own chunk (lazyPage): while it downloads, the layout stays and this shows.
    return (
      <Suspense fallback={<PageLoading />}>
        <View route={route} params={params} />
      </Suspense>
    );
  }
  // Only the sign-in routes have no screen here; they never reach an organization's layout.
  return <NotFoundPage homeHref={params.orgId ? routes.Dashboard.href({ orgId: params.orgId }) : '/'} />;
}
