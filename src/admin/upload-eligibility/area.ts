import { createElement } from 'react';
import type { RouteViewProps } from '../../app/route-view-props';
import type { FeatureArea } from '../../app/feature-area';
import { lazyPage } from '../../app/lazy-page';

const UploadEligibilityRulesPage = lazyPage(() => import('./upload-eligibility-rules'), 'UploadEligibilityRulesPage');

/** The upper level's upload eligibility rules (issue 32): one page of every index. */
export const uploadEligibilityArea: FeatureArea = {
  views: {
    UploadEligibilityRules: ({ params }: RouteViewProps) => createElement(UploadEligibilityRulesPage, { orgId: params.orgId! }),
  },
};
