import { createElement } from 'react';
import type { FeatureArea } from '../app/feature-area';
import type { RouteViewProps } from '../app/route-view-props';
import { lazyPage } from '../app/lazy-page';

const AccessTokensPage = lazyPage(() => import('./access-tokens-page'), 'AccessTokensPage');

/** The signed-in user's own account (issue 18): their personal access tokens. Change password is a dialog in the header. */
export const accountArea: FeatureArea = {
  views: {
    AccessTokens: ({ params }: RouteViewProps) => createElement(AccessTokensPage, { key: params.orgId, orgId: params.orgId! }),
  },
};
