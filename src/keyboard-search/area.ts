import { createElement } from 'react';
import type { FeatureArea } from '../app/feature-area';
import type { RouteViewProps } from '../app/route-view-props';
import { lazyPage } from '../app/lazy-page';

const KeyboardSearchPage = lazyPage(() => import('./keyboard-search-page'), 'KeyboardSearchPage');

/** Keyboard search (spec 2.6): a typed-in profile against the stored ones. */
export const keyboardSearchArea: FeatureArea = {
  views: { KeyboardSearch: ({ params }: RouteViewProps) => createElement(KeyboardSearchPage, { key: params.orgId, orgId: params.orgId! }) },
};
