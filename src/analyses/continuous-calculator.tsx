import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState, type Dispatch, type SetStateAction } from 'react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import type { ContinuousLrBody } from '../../core/schemas/continuous';
import type { Profile } from '../../core/schemas/profiles';
import { continuousBlockers, continuousLrBody, continuousRunMachine, type ContinuousPrefill } from '../../machines/continuousRun.machine';
import type { CalculatorCalls } from './calculator-api';
import { ContinuousParameters } from './continuous-parameters';
import { ContributorSearch, type ContributorSearchSnapshot } from './contributor-search';
import { ContinuousPersons } from './continuous-persons';
import { ContinuousResult } from './continuous-result';
import { ContinuousStain } from './continuous-stain';
import { PopulationPicker } from './population-picker';
import { ReportButtons } from './report-buttons';
import { usePopulations } from './use-populations';
import { RunFailure, RunForm } from './run-controls';

interface ContinuousCalculatorProps {
  orgId: string;
  analysisId: string;
  caseId: string | null;
  calls: CalculatorCalls;
  /** Where the machine starts (stories show each reachable state); a new calculator starts editing. */
  snapshot?: ContinuousRunSnapshot;
  /** Where the number-of-contributors search starts (stories). */
  searchSnapshot?: ContributorSearchSnapshot;
  /** The stain, person of interest and population chosen on opening (a continuous hit's link). */
  prefill?: ContinuousPrefill;
}

export type ContinuousRunSnapshot = SnapshotFrom<typeof continuousRunMachine>;

/** The prefilled stain and person of interest read once, so their pickers name them. */
function usePrefilledProfiles(calls: CalculatorCalls, prefill: ContinuousPrefill | undefined, setPicked: Dispatch<SetStateAction<Record<string, Profile>>>) {
  const stainId = prefill?.stainId ?? null;
  const personOfInterestId = prefill?.personOfInterestId ?? null;
  useEffect(() => {
    let current = true;
    for (const id of [stainId, personOfInterestId]) {
      if (id === null) continue;
      // A profile that cannot be read leaves its picker empty; the run's blockers say what is missing.
      calls.profile(id).then(
        (profile) => current && setPicked((all) => ({ ...all, [profile.id]: profile })),
        () => undefined,
      );
    }
    return () => {
      current = false;
    };
  }, [calls, stainId, personOfInterestId, setPicked]);
}

/**
 * The calculator of a Continuous mixture analysis (issue 31): the stain and its replicates with heights, the persons,
 * one population and the model's settings; Run weighs on the server (POST continuous-lr) and the result shows the
 * LR, the parameters, the deconvolution and the model's validation. Driven by machines/continuousRun.
 */
export function ContinuousCalculator({ orgId, analysisId, caseId, calls, snapshot: start, searchSnapshot, prefill }: ContinuousCalculatorProps) {
  const logic = useMemo(
    () =>
      continuousRunMachine.provide({
        actors: {
          loadStain: fromPromise(({ input }: { input: { profileId: string } }) => calls.stain(input.profileId)),
          weigh: fromPromise(({ input, signal }: { input: ContinuousLrBody; signal: AbortSignal }) => calls.continuousLr(input, signal)),
        },
      }),
    [calls],
  );
  const input = prefill ? { analysisId, prefill } : { analysisId };
  const [snapshot, send] = useMachine(logic, start ? { input, snapshot: start } : { input });
  // The profiles chosen so far by id, so each picker shows its own (the machine holds the ids).
  const [picked, setPicked] = useState<Record<string, Profile>>({});
  usePrefilledProfiles(calls, prefill, setPicked);
  const { populations, failed: populationsFailed } = usePopulations(calls, orgId, 'Autosomal');

  const { context } = snapshot;
  const busy = snapshot.hasTag('busy');
  const pick = (profile: Profile) => setPicked((all) => ({ ...all, [profile.id]: profile }));
  const blockers = context.showBlockers ? continuousBlockers(context) : [];
  return (
    <>
      <RunForm
        busy={busy}
        blockers={blockers}
        populationsFailed={populationsFailed}
        onRun={() => send({ type: 'run.start' })}
        onCancel={() => send({ type: 'run.cancel' })}
        footer={busy && context.draft.mode === 'fit' ? <p role="status">Fitting both hypotheses by maximum likelihood; a large stain takes seconds.</p> : null}
      >
        <ContinuousStain
          orgId={orgId}
          caseId={caseId}
          chosen={context.stainId ? (picked[context.stainId] ?? null) : null}
          stain={context.stain}
          loading={snapshot.hasTag('stainLoading')}
          error={context.stainError}
          replicatesChosen={context.replicatesChosen}
          busy={busy}
          calls={calls}
          onChoose={(profile) => {
            if (profile) pick(profile);
            send({ type: 'stain.choose', profileId: profile?.id ?? null });
          }}
          send={send}
        />
        <ContinuousPersons
          orgId={orgId}
          caseId={caseId}
          personOfInterestId={context.personOfInterestId}
          lists={{ knownContributors: context.knownContributors, knownNonContributors: context.knownNonContributors }}
          canAdd={{ knownContributors: snapshot.can({ type: 'person.add', list: 'knownContributors' }), knownNonContributors: snapshot.can({ type: 'person.add', list: 'knownNonContributors' }) }}
          busy={busy}
          calls={calls}
          picked={picked}
          onPick={pick}
          send={send}
        />
        <PopulationPicker single populations={populations} chosen={context.populationId ? [context.populationId] : []} disabled={busy} onToggle={(populationId) => send({ type: 'population.choose', populationId })} />
        <ContinuousParameters draft={context.draft} knownContributors={context.knownContributors.length} disabled={busy} send={send} />
      </RunForm>
      <ContributorSearch
        calls={calls}
        disabled={busy}
        snapshot={searchSnapshot}
        request={() => {
          const missing = continuousBlockers(context);
          return { request: missing.length === 0 ? continuousLrBody(context) : null, blockers: missing };
        }}
        onUse={(contributors, model) => send({ type: 'model.use', contributors, model })}
      />
      {snapshot.matches({ run: 'error' }) && context.error ? <RunFailure error={context.error} onRetry={() => send({ type: 'run.retry' })} onDismiss={() => send({ type: 'failure.dismiss' })} /> : null}
      {snapshot.matches({ run: 'result' }) && context.result ? (
        <>
          <ReportButtons report={(format) => calls.continuousReport(continuousLrBody(context), format)} />
          <ContinuousResult result={context.result} />
        </>
      ) : null}
    </>
  );
}
