import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A component (a page, or a heavy part of one) loaded on first use: each route's code becomes a
 * chunk of its own, so signing in or opening the dashboard does not download every screen
 * (ARCHITECTURE.md "Deployment"). The caller wraps it in Suspense (RouteView does for pages).
 */
export function lazyPage<M extends Record<K, ComponentType<any>>, K extends keyof M & string>(load: () => Promise<M>, name: K): LazyExoticComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] }));
}
