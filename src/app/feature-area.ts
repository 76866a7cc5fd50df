import type { ComponentType } from 'react';
import type { ApiClient } from '../api/client';
import type { RouteViewProps } from './route-view-props';
import type { RouteName } from './routes';

/** Looks up the name a breadcrumb shows for a record id (a rejection shows n/a, spec 8.2). */
export type RecordNameLookup = (api: ApiClient, id: string, params: Readonly<Record<string, string>>) => Promise<string>;

/** What one feature area (an administration area, cases, profiles, …) contributes to the app: its screens and its breadcrumb names. */
export interface FeatureArea {
  views: Partial<Record<RouteName, ComponentType<RouteViewProps>>>;
  names?: Partial<Record<RouteName, RecordNameLookup>>;
}
