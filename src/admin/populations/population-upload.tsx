import { useEffect, useMemo } from 'react';
import { useMachine } from '@xstate/react';
import { useLocation } from 'wouter';
import { fromPromise } from 'xstate';
import type { Population, StatisticsPreview } from '../../../core/schemas/populations';
import { populationUploadMachine, type PreviewRequest, type SaveStatisticsRequest } from '../../../machines/populationUpload.machine';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { populationApi, type PopulationCalls } from './population-api';
import { UploadPanel } from './upload-panel';
import { usePopulation } from './use-population';
import './populations.css';

/** Upload Statistics (spec 2.7 populations/{id}/upload): load the population, then the two-step upload. */
export function PopulationUpload({ orgId, id }: { orgId: string; id: string }) {
  const api = useApi();
  const calls = useMemo(() => populationApi(api), [api]);
  const load = usePopulation(id, calls.get);
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{load.status === 'loaded' ? `Upload statistics: ${load.population.name}` : 'Upload statistics'}</h1>
      {load.status === 'loading' ? (
        <p role="status" aria-busy="true">
          Loading…
        </p>
      ) : load.status === 'failed' ? (
        <div className="notice notice--negative" role="alert">
          <p>{load.error.status === 404 ? 'This population no longer exists.' : load.error.message}</p>
        </div>
      ) : (
        <UploadFlow population={load.population} calls={calls} orgId={orgId} />
      )}
    </section>
  );
}

/** Runs the upload machine with the real calls; leaves for the edit page when saved (with a notice) or cancelled. */
function UploadFlow({ population, calls, orgId }: { population: Population; calls: PopulationCalls; orgId: string }) {
  const [, navigate] = useLocation();
  const logic = useMemo(
    () =>
      populationUploadMachine.provide({
        actors: {
          previewStatistics: fromPromise<StatisticsPreview, PreviewRequest>(({ input }) => calls.preview(input.populationId, input)),
          saveStatistics: fromPromise<Population, SaveStatisticsRequest>(({ input }) => calls.saveStatistics(input.populationId, input, input.version)),
        },
      }),
    [calls],
  );
  const [snapshot, send] = useMachine(logic, { input: { populationId: population.id, version: population.version } });
  useEffect(() => {
    const edit = (query?: Record<string, string>) => routes.PopulationsEdit.href({ orgId, id: population.id }, query);
    if (snapshot.matches('saved')) navigate(edit({ statistics: 'saved' }));
    else if (snapshot.matches('cancelled')) navigate(edit());
  }, [snapshot.value]);
  return <UploadPanel populationName={population.name} snapshot={snapshot} send={send} />;
}
