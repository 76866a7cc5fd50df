import { createElement } from 'react';
import type { FeatureArea } from '../app/feature-area';
import type { RouteViewProps } from '../app/route-view-props';
import { lazyPage } from '../app/lazy-page';

const MixtureSearchPage = lazyPage(() => import('./mixture-search-page'), 'MixtureSearchPage');
const TypedMixtureSearchPage = lazyPage(() => import('./mixture-search-page'), 'TypedMixtureSearchPage');

/** Mixture search (issue 17): a forensic profile's LR-ranked search of the references, opened from its profile view, or of a typed mixture from the keyboard search. */
export const mixtureSearchArea: FeatureArea = {
  views: {
    ProfileMixtureSearch: ({ params }: RouteViewProps) => createElement(MixtureSearchPage, { key: `${params.orgId}/${params.sampleid}`, orgId: params.orgId!, sampleid: params.sampleid! }),
    MixtureSearch: ({ params }: RouteViewProps) => createElement(TypedMixtureSearchPage, { key: params.orgId, orgId: params.orgId! }),
  },
};
