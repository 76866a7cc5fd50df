import { createElement } from 'react';
import { useSearch } from 'wouter';
import type { ContinuousPrefill } from '../../machines/continuousRun.machine';
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

/** The choices a continuous hit opens the calculator with (`?stain=&personOfInterest=&population=`). */
function usePrefill(): ContinuousPrefill {
  const query = new URLSearchParams(useSearch());
  return { stainId: query.get('stain'), personOfInterestId: query.get('personOfInterest'), populationId: query.get('population') };
}

function CalculatorRoute({ params }: RouteViewProps) {
  const caseId = useCaseId();
  const prefill = usePrefill();
  // Another analysis, organization, case or prefill starts a fresh calculator.
  const key = `${params.orgId}/${params.analysisId}/${caseId}/${prefill.stainId}/${prefill.personOfInterestId}/${prefill.populationId}`;
  return createElement(CalculatorPage, { key, orgId: params.orgId!, analysisId: params.analysisId!, caseId, prefill });
}

/** Analyses (spec 2.5): every analysis by group (issue 18), a group's analyses and the calculator. */
export const analysesArea: FeatureArea = {
  views: {
    AnalysisList: ({ params }: RouteViewProps) => createElement(AnalysisListPage, { key: params.orgId, orgId: params.orgId! }),
    AnalysisGroupAnalyses: GroupAnalysesRoute,
    Analyses: CalculatorRoute,
  },
};
