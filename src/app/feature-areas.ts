import { ADMIN_AREAS } from '../admin/areas';
import type { FeatureArea, RecordNameLookup } from './feature-area';
import type { RouteName } from './routes';

/** Every built feature: administration (spec 2.6–2.7), cases and profiles (2.3, 2.8). */
export const FEATURE_AREAS: readonly FeatureArea[] = [...ADMIN_AREAS];

/** Breadcrumb name lookups of every area, by route name. */
export const RECORD_NAMES: Partial<Record<RouteName, RecordNameLookup>> = Object.assign({}, ...FEATURE_AREAS.map((area) => area.names ?? {}));
