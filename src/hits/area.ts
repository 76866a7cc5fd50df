import { createElement } from 'react';
import type { HitList } from '../../core/schemas/hits';
import type { FeatureArea } from '../app/feature-area';
import type { RouteViewProps } from '../app/route-view-props';
import { lazyPage } from '../app/lazy-page';

const HitViewPage = lazyPage(() => import('./hit-view-page'), 'HitViewPage');
const HitsPage = lazyPage(() => import('./hits-page'), 'HitsPage');
const ForeignQueriesPage = lazyPage(() => import('./foreign-queries-page'), 'ForeignQueriesPage');
const CandidateMatchesPage = lazyPage(() => import('./candidate-matches-page'), 'CandidateMatchesPage');

const hitsPage = (list: HitList) => ({ params }: RouteViewProps) => createElement(HitsPage, { key: `${params.orgId}/${list}`, orgId: params.orgId!, list });

/** Hits (spec 2.4): the Review, Published, Rejected and All lists and HitView; foreign queries' release requests and candidate matches sent down (issue 32). */
export const hitsArea: FeatureArea = {
  views: {
    Hits: hitsPage('pending'),
    HitsPublished: hitsPage('published'),
    HitsRejected: hitsPage('rejected'),
    HitsAll: hitsPage('all'),
    ForeignQueries: ({ params }: RouteViewProps) => createElement(ForeignQueriesPage, { key: params.orgId, orgId: params.orgId! }),
    CandidateMatches: ({ params }: RouteViewProps) => createElement(CandidateMatchesPage, { key: params.orgId, orgId: params.orgId! }),
    HitView: ({ route, params }: RouteViewProps) => createElement(HitViewPage, { key: params.id, orgId: params.orgId!, id: params.id!, title: route.title }),
  },
};
