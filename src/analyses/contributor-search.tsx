import { useMachine } from '@xstate/react';
import { useId, useMemo } from 'react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { MAX_CONTINUOUS_CONTRIBUTORS, type ContinuousLrBody, type ContinuousModelSwitches, type ContributorSearchJob, type ContributorSearchJobModel, type ContributorSearchStart } from '../../core/schemas/continuous';
import { contributorSearchMachine, modelName, usableModel, type SearchVariant } from '../../machines/contributorSearch.machine';
import type { CalculatorCalls } from './calculator-api';
import { logLikelihoodText } from './continuous-result';
import { log10Text } from './result-format';
import { RunBlockers } from './run-controls';

export type ContributorSearchSnapshot = SnapshotFrom<typeof contributorSearchMachine>;

interface ContributorSearchProps {
  calls: Pick<CalculatorCalls, 'contributorSearch'>;
  /** The calculator's request as it stands, or why it cannot be sent. */
  request(): { request: ContinuousLrBody | null; blockers: string[] };
  /** The calculator is weighing: the search waits. */
  disabled: boolean;
  onUse(contributors: number, model: ContinuousModelSwitches): void;
  /** Where the machine starts (stories); a new search starts idle. */
  snapshot?: ContributorSearchSnapshot;
}

const COUNTS = Array.from({ length: MAX_CONTINUOUS_CONTRIBUTORS }, (_, i) => i + 1);
const VARIANTS: [SearchVariant, string][] = [
  ['degradation', 'Also with degradation'],
  ['backwardStutter', 'Also with backward stutter'],
  ['forwardStutter', 'Also with backward and forward stutter'],
];
const STATE_TEXT: Record<ContributorSearchJobModel['state'], string> = { waiting: 'Waiting', fitting: 'Fitting…', fitted: 'Fitted', refused: 'Not fitted', cancelled: 'Cancelled' };

/** What the job says as a whole: progress while it runs, how it ended. */
function jobStatus(job: ContributorSearchJob): string {
  const progress = `${job.modelsDone} of ${job.modelsTotal} models fitted`;
  const refused = job.models.filter((m) => m.state === 'refused').length;
  const tail = refused > 0 ? `; ${refused} not fitted (too large), see their reason` : '';
  const seconds = job.elapsedMs === null ? '' : ` in ${(job.elapsedMs / 1000).toFixed(1)} s`;
  switch (job.state) {
    case 'running':
      return `Fitting: ${progress}${tail}.`;
    case 'done':
      return `Done${seconds}: ${progress}${tail}. The best model (lowest AIC) is marked.`;
    case 'cancelled':
      return `Cancelled${seconds}: ${progress}; the models fitted so far are listed.`;
    default:
      return `The search failed${seconds}: ${progress}.`;
  }
}

const COLUMNS = ['Contributors', 'Model', 'Parameters', 'ln L Hp', 'ln L Hd', 'AIC', 'BIC', 'log10 LR', 'State'];

/** A contributor count, 1 to the model's most. */
function CountSelect({ label, value, onChange }: { label: string; value: number; onChange(n: number): void }) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="input" value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {COUNTS.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}

function ModelRow({ model, canUse, onUse }: { model: ContributorSearchJobModel; canUse: boolean; onUse(): void }) {
  const name = `${model.contributors} ${model.contributors === 1 ? 'contributor' : 'contributors'}, ${modelName(model.model).toLowerCase()}`;
  return (
    <tr className={model.best ? 'contributor-search__best' : undefined} aria-label={name}>
      <th scope="row">
        {model.contributors}
        {model.best ? <strong className="contributor-search__mark"> Best</strong> : null}
      </th>
      <td>{modelName(model.model)}</td>
      <td className="calculator__number">{model.parameters}</td>
      <td className="calculator__number">{logLikelihoodText(model.logLikelihoodHp)}</td>
      <td className="calculator__number">{logLikelihoodText(model.logLikelihoodHd)}</td>
      <td className="calculator__number">{model.aic === null ? '–' : model.aic.toFixed(2)}</td>
      <td className="calculator__number">{model.bic === null ? '–' : model.bic.toFixed(2)}</td>
      <td className="calculator__number">{log10Text(model.log10Lr)}</td>
      <td>
        {STATE_TEXT[model.state]}
        {model.reason ? <p className="continuous-result__note">{model.reason}</p> : null}
        {model.note ? <p className="continuous-result__note">Fit not converged: {model.note}</p> : null}
        {model.state === 'fitted' && model.logLikelihoodHd === null ? <p className="continuous-result__note">No parameters explain the evidence with this model.</p> : null}
      </td>
      <td>
        {usableModel(model) ? (
          <button type="button" className="button button--secondary" disabled={!canUse} aria-label={`Use this model: ${name}`} onClick={onUse}>
            Use this model
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * The number of contributors (issue 31; EuroForMix's model search): the contributor counts and the parts of the model
 * to try, Start (the calculator's choices, fitted on the server's worker), progress per model, Cancel; then the models
 * side by side — log-likelihoods, AIC, BIC, free parameters, the best (lowest AIC) marked — and "Use this model" to
 * set the calculator's count and switches. Driven by machines/contributorSearch.
 */
export function ContributorSearch({ calls, request, disabled, onUse, snapshot: start }: ContributorSearchProps) {
  const id = useId();
  const logic = useMemo(
    () =>
      contributorSearchMachine.provide({
        actors: {
          startSearch: fromPromise(({ input }: { input: ContributorSearchStart }) => calls.contributorSearch.start(input)),
          readSearch: fromPromise(({ input }: { input: { id: string } }) => calls.contributorSearch.read(input.id)),
          cancelSearch: fromPromise(({ input }: { input: { id: string } }) => calls.contributorSearch.cancel(input.id)),
        },
      }),
    [calls],
  );
  const [snapshot, send] = useMachine(logic, start ? { snapshot: start } : undefined);
  const { context } = snapshot;
  const busy = snapshot.hasTag('busy');
  const job = context.job;
  const settingsLocked = busy || disabled;
  return (
    <section className="calculator__population contributor-search" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Number of contributors</h2>
      <p className="field__hint">Fits the evidence with each number of contributors under Hp and Hd, with the calculator’s choices, and compares the models by AIC and BIC (EuroForMix’s model search).</p>
      <fieldset className="contributor-search__settings" disabled={settingsLocked}>
        <legend className="visually-hidden">Models to fit</legend>
        <CountSelect label="From" value={context.from} onChange={(n) => send({ type: 'range.choose', from: n, to: Math.max(context.to, n) })} />
        <CountSelect label="To (contributors)" value={context.to} onChange={(n) => send({ type: 'range.choose', from: Math.min(context.from, n), to: n })} />
        <div className="contributor-search__variants">
          {VARIANTS.map(([variant, label]) => (
            <label key={variant} className="field--checkbox">
              <input type="checkbox" checked={context.variants[variant]} onChange={(e) => send({ type: 'variant.check', variant, checked: e.target.checked })} />
              <span>{label}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <RunBlockers blockers={context.blockers} />
      <div className="form__actions">
        <button type="button" className="button" disabled={settingsLocked} onClick={() => send({ type: 'search.start', ...request() })}>
          {busy ? 'Searching…' : 'Find the number of contributors'}
        </button>
        {busy && job ? (
          <button type="button" className="button button--secondary" disabled={snapshot.matches('cancelling')} onClick={() => send({ type: 'search.cancel' })}>
            Cancel the search
          </button>
        ) : null}
      </div>
      {snapshot.matches('starting') ? <p role="status">Starting the search…</p> : null}
      {snapshot.matches('failed') && context.error ? (
        <div className="notice notice--negative" role="alert">
          <p>{context.error.message}</p>
          {snapshot.can({ type: 'search.retry' }) ? (
            <button type="button" className="button button--secondary" onClick={() => send({ type: 'search.retry' })}>
              Try again
            </button>
          ) : null}
        </div>
      ) : null}
      {job ? (
        <>
          <p role="status">{jobStatus(job)}</p>
          {job.message ? (
            <p className="notice notice--negative" role="alert">
              {job.message}
            </p>
          ) : null}
          <div className="calculator__scroll">
            <table className="calculator__markers contributor-search__table">
              <caption>Models compared</caption>
              <thead>
                <tr>
                  {COLUMNS.map((c) => (
                    <th key={c} scope="col">
                      {c}
                    </th>
                  ))}
                  <th scope="col">
                    <span className="visually-hidden">Use</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {job.models.map((m) => (
                  <ModelRow key={`${m.contributors}/${modelName(m.model)}`} model={m} canUse={!disabled} onUse={() => onUse(m.contributors, m.model)} />
                ))}
              </tbody>
            </table>
          </div>
          <p className="field__hint">AIC = 2 × parameters − 2 ln L Hd; BIC = parameters × ln(observed peaks) − 2 ln L Hd. The lower, the better the model explains the heights for its size.</p>
        </>
      ) : null}
    </section>
  );
}
