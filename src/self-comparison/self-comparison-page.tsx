import { useEffect, useMemo, useState } from 'react';
import { fromPromise } from 'xstate';
import type { SelfComparisonJob } from '../../core/schemas/self-comparison';
import { selfComparisonMachine, type SelfComparisonRequest } from '../../machines/selfComparison.machine';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { LinkTabs } from '../ui/link-tabs';
import { SelfComparisonActor } from './self-comparison-actor';
import { selfComparisonApi, type SelfComparisonCalls } from './self-comparison-api';
import { SelfComparisonForm, type ChemistryChoice } from './self-comparison-form';
import { SelfComparisonProgress } from './self-comparison-progress';
import { SelfComparisonFailure, SelfComparisonReport, SelfComparisonStopped } from './self-comparison-report';
import './self-comparison.css';

/** The parts of the screen under the machine's actor (also drawn by the stories from any state). */
export function SelfComparisonScreen({ orgId, calls, chemistries }: { orgId: string; calls: SelfComparisonCalls; chemistries: readonly ChemistryChoice[] | null }) {
  const loading = SelfComparisonActor.useSelector((s) => s.matches('loading'));
  return (
    <>
      <SelfComparisonFailure />
      {loading ? <p aria-busy="true">Loading…</p> : chemistries ? <SelfComparisonForm chemistries={chemistries} /> : null}
      <SelfComparisonProgress />
      <SelfComparisonStopped />
      <SelfComparisonReport orgId={orgId} calls={calls} />
    </>
  );
}

/**
 * Database self-comparison (issue 15; the spec has no such screen, so it follows the profile lists):
 * a quality check before an audit — every pair of one chemistry's approved profiles of the
 * organization compared, listing duplicates (the same person entered twice) and near-duplicates.
 */
export function SelfComparisonPage({ orgId }: { orgId: string }) {
  const api = useApi();
  const calls = useMemo(() => selfComparisonApi(api), [api]);
  const logic = useMemo(
    () =>
      selfComparisonMachine.provide({
        actors: {
          loadJob: fromPromise<SelfComparisonJob | null, { orgId: string }>(({ input }) => calls.job(input.orgId)),
          startJob: fromPromise<SelfComparisonJob, { orgId: string; request: SelfComparisonRequest }>(({ input }) => calls.start(input.orgId, input.request)),
          cancelJob: fromPromise<SelfComparisonJob, { orgId: string }>(({ input }) => calls.cancel(input.orgId)),
        },
      }),
    [calls],
  );
  const [chemistries, setChemistries] = useState<ChemistryChoice[] | null>(null);
  useEffect(() => {
    let live = true;
    calls.chemistries().then(
      (c) => live && setChemistries(c),
      () => live && setChemistries([]),
    );
    return () => {
      live = false;
    };
  }, [calls]);
  return (
    <section className="page self-comparison" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{routes.ProfilesSelfComparison.title}</h1>
      </div>
      <LinkTabs
        label="Profile lists"
        tabs={[
          { label: 'Profiles', href: routes.Profiles.href({ orgId }), current: false },
          { label: 'Review', href: routes.ProfilesReview.href({ orgId }), current: false },
          { label: 'Self-comparison', href: routes.ProfilesSelfComparison.href({ orgId }), current: true },
        ]}
      />
      <p className="field__hint">
        Every pair of the approved profiles of one chemistry is compared, on the markers typed in either profile. A duplicate has the same genotype at every one of them; a near-duplicate differs at one
        or a few (a marker typed in one profile only is a difference). Mixtures are left out.
      </p>
      <SelfComparisonActor.Provider logic={logic} options={{ input: { orgId } }}>
        <SelfComparisonScreen orgId={orgId} calls={calls} chemistries={chemistries} />
      </SelfComparisonActor.Provider>
    </section>
  );
}
