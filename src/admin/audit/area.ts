import { createElement } from 'react';
import type { FeatureArea } from '../../app/feature-area';
import { lazyPage } from '../../app/lazy-page';
import type { RouteViewProps } from '../../app/route-view-props';

const AuditPeriodPage = lazyPage(() => import('./audit-period-page'), 'AuditPeriodPage');

/** The organization's audit trail over a period, with its exports (issue 18). */
export const auditArea: FeatureArea = {
  views: { AuditTrail: ({ params }: RouteViewProps) => createElement(AuditPeriodPage, { orgId: params.orgId! }) },
};
