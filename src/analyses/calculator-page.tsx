import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { fromPromise } from 'xstate';
import { CONTINUOUS_MIXTURE, type Analysis } from '../../core/schemas/analyses';
import type { Profile } from '../../core/schemas/profiles';
import type { ContinuousPrefill } from '../../machines/continuousRun.machine';
import { analysisRunMachine, analyzeRequest, runBlockers, usesPopulations, type AnalyzeRequest } from '../../machines/analysisRun.machine';
import { toEditorError, type EditorError } from '../../machines/recordEditor.machine';
import { MissingPatterns } from '../admin/analyses/missing-patterns';
import { useApi } from '../app/api-provider';
import { useDocumentTitle } from '../app/use-document-title';
import { AnalysisResultView } from './analysis-result-view';
import { calculatorApi, type CalculatorCalls, type ReportFormat } from './calculator-api';
import { ContinuousCalculator } from './continuous-calculator';
import { MixtureChoices } from './mixture-choices';
import { MixtureParameters } from './mixture-parameters';
import { PopulationPicker } from './population-picker';
import { ProfilePicker } from './profile-picker';
import { usePopulations } from './use-populations';
import { ReportButtons } from './report-buttons';
import { RunFailure, RunForm } from './run-controls';
import './calculator.css';

interface CalculatorProps {
  orgId: string;
  analysis: Analysis;
  /** The case the calculator was opened from (`?caseId=`), whose profiles it offers; null for the organization's. */
  caseId: string | null;
  calls: CalculatorCalls;
}

/** The calculator for one loaded analysis: the choices, Run/Cancel and the result, driven by machines/analysisRun. */
export function Calculator({ orgId, analysis, caseId, calls }: CalculatorProps) {
  const logic = useMemo(
    () => analysisRunMachine.provide({ actors: { analyze: fromPromise(({ input, signal }: { input: AnalyzeRequest; signal: AbortSignal }) => calls.analyze(input, signal)) } }),
    [calls],
  );
  const [snapshot, send] = useMachine(logic, { input: { analysis } });
  const [chosen, setChosen] = useState<(Profile | null)[]>(() => analysis.roles.map(() => null));
  // A mixture run's further replicates and known contributors, by id (the machine holds the ids, in order).
  const [picked, setPicked] = useState<Record<string, Profile>>({});
  const withPopulations = usesPopulations(analysis.kind);
  const { populations, failed: populationsFailed } = usePopulations(calls, orgId, analysis.profileKind, withPopulations);

  const { context } = snapshot;
  const busy = snapshot.hasTag('busy');
  const blockers = context.showBlockers ? runBlockers(context) : [];
  const choose = (role: number, profile: Profile | null) => {
    setChosen((list) => list.map((p, i) => (i === role ? profile : p)));
    send({ type: 'profile.choose', role, profileId: profile?.id ?? null });
  };

  return (
    <>
      {analysis.label && analysis.label !== analysis.name ? <p className="field__hint">{analysis.label}</p> : null}
      <MissingPatterns patterns={analysis.missingPatterns} />
      <RunForm busy={busy} blockers={blockers} populationsFailed={populationsFailed} onRun={() => send({ type: 'run.start' })} onCancel={() => send({ type: 'run.cancel' })}>
        {analysis.roles.map((role, i) => (
          <ProfilePicker
            key={role}
            role={role}
            orgId={orgId}
            caseId={caseId}
            kind={analysis.profileKind}
            chosen={chosen[i] ?? null}
            disabled={busy}
            calls={calls}
            onChoose={(profile) => choose(i, profile)}
          />
        ))}
        {context.mixture ? (
          <MixtureChoices
            mixture={context.mixture}
            canAddReplicate={snapshot.can({ type: 'replicate.add' })}
            canAddKnownContributor={snapshot.can({ type: 'knownContributor.add' })}
            orgId={orgId}
            caseId={caseId}
            kind={analysis.profileKind}
            busy={busy}
            calls={calls}
            picked={picked}
            onPick={(profile) => setPicked((all) => ({ ...all, [profile.id]: profile }))}
            send={send}
          />
        ) : null}
        {withPopulations ? (
          <PopulationPicker populations={populations} chosen={context.populationIds} disabled={busy} onToggle={(populationId) => send({ type: 'population.toggle', populationId })} />
        ) : null}
        {context.mixture ? <MixtureParameters parameters={context.mixture.parameters} knownContributors={context.mixture.knownContributorIds.length} disabled={busy} send={send} /> : null}
      </RunForm>
      {snapshot.matches('error') && context.error ? <RunFailure error={context.error} onRetry={() => send({ type: 'run.retry' })} onDismiss={() => send({ type: 'failure.dismiss' })} /> : null}
      {snapshot.matches('result') && context.result ? (
        <>
          <ReportButtons report={(format) => calls.report(analyzeRequest(context), format)} />
          <AnalysisResultView result={context.result} />
        </>
      ) : null}
    </>
  );
}

type AnalysisLoad = { status: 'loading' } | { status: 'failed'; error: EditorError } | { status: 'loaded'; analysis: Analysis };

/** The Analyses route (spec 2.5): reads the analysis, titles the page with its name and shows the calculator. */
export function CalculatorPage({ orgId, analysisId, caseId, prefill }: { orgId: string; analysisId: string; caseId: string | null; prefill?: ContinuousPrefill }) {
  const api = useApi();
  const calls = useMemo(() => calculatorApi(api), [api]);
  const [load, setLoad] = useState<AnalysisLoad>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    setLoad({ status: 'loading' });
    calls.analysis(analysisId).then(
      (analysis) => current && setLoad({ status: 'loaded', analysis }),
      (err: unknown) => current && setLoad({ status: 'failed', error: toEditorError(err) }),
    );
    return () => {
      current = false;
    };
  }, [calls, analysisId]);
  const title = load.status === 'loaded' ? load.analysis.name : 'Analysis calculator';
  useDocumentTitle(title);
  return (
    <section className="page calculator" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{title}</h1>
      </div>
      {load.status === 'loading' ? <p role="status">Loading the analysis…</p> : null}
      {load.status === 'failed' ? (
        <p className="notice notice--negative" role="alert">
          {load.error.message}
        </p>
      ) : null}
      {load.status === 'loaded' ? (
        load.analysis.active ? (
          load.analysis.kind === CONTINUOUS_MIXTURE ? (
            <>
              {load.analysis.label && load.analysis.label !== load.analysis.name ? <p className="field__hint">{load.analysis.label}</p> : null}
              <ContinuousCalculator key={load.analysis.id} orgId={orgId} analysisId={load.analysis.id} caseId={caseId} calls={calls} {...(prefill ? { prefill } : {})} />
            </>
          ) : (
            <Calculator key={load.analysis.id} orgId={orgId} analysis={load.analysis} caseId={caseId} calls={calls} />
          )
        ) : (
          <p className="notice notice--warning" role="status">
            This analysis is not active. An administrator activates it under Analysis groups.
          </p>
        )
      ) : null}
    </section>
  );
}
