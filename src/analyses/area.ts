import { createElement } from 'react';
import { useSearch } from 'wouter';
import type { FeatureArea } from '../app/feature-area';
import type { RouteViewProps } from '../app/route-view-props';
import { lazyPage } from '../app/lazy-page';

const CalculatorPage = lazyPage(() => import('./calculator-page'), 'CalculatorPage');
const AnalysisListPage = lazyPage(() => import('./analysis-list-page'), 'AnalysisListPage');
const GroupAnalysesPage = lazyPage(() => import('./group-analyses-page'), 'GroupAnalysesPage');

/** The case the calculator was opened for (`?caseId=`); `new` or none means the organization's profiles. */
function useCaseId(): string | null {
  const caseId = new URLSearchParams(useSearch()).get('caseId');
  return caseId && caseId !== 'new' ? caseId : null;
}

function GroupAnalysesRoute({ params }: RouteViewProps) {
  const caseId = useCaseId();
  return createElement(GroupAnalysesPage, { key: `${params.orgId}/${params.analysisGroupId}`, orgId: params.orgId!, analysisGroupId: params.analysisGroupId!, caseId });
}

function CalculatorRoute({ params }: RouteViewProps) {
  const caseId = useCaseId();
  // Another analysis, organization or case starts a fresh calculator.
  return createElement(CalculatorPage, { key: `${params.orgId}/${params.analysisId}/${caseId}`, orgId: params.orgId!, analysisId: params.analysisId!, caseId });
}

/** Analyses (spec 2.5): every analysis by group (issue 18), a group's analyses and the calculator. */
export const analysesArea: FeatureArea = {
  views: {
    AnalysisList: ({ params }: RouteViewProps) => createElement(AnalysisListPage, { key: params.orgId, orgId: params.orgId! }),
    AnalysisGroupAnalyses: GroupAnalysesRoute,
    Analyses: CalculatorRoute,
  },
};
