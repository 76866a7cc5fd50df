import { accountArea } from '../account/area';
import { ADMIN_AREAS } from '../admin/areas';
import { analysesArea } from '../analyses/area';
import { casesArea } from '../cases/area';
import { dashboardArea } from '../dashboard/area';
import { profilesArea } from '../profiles/area';
import { keyboardSearchArea } from '../keyboard-search/area';
import { mixtureSearchArea } from '../mixture-search/area';
import { hitsArea } from '../hits/area';
import type { FeatureArea, RecordNameLookup } from './feature-area';
import type { RouteName } from './routes';

/** Every built feature: administration (spec 2.6–2.7), cases and profiles (2.3, 2.8), analyses (2.5), the searches (2.6; issue 17), the user's own account (issue 18). */
export const FEATURE_AREAS: readonly FeatureArea[] = [dashboardArea, ...ADMIN_AREAS, casesArea, profilesArea, analysesArea, keyboardSearchArea, mixtureSearchArea, hitsArea, accountArea];

/** Breadcrumb name lookups of every area, by route name. */
export const RECORD_NAMES: Partial<Record<RouteName, RecordNameLookup>> = Object.assign({}, ...FEATURE_AREAS.map((area) => area.names ?? {}));
