import { useId } from 'react';
import { MAX_MIXTURE_CONTRIBUTORS } from '../../core/schemas/mixtures';
import type { DropoutChoice, MixtureTextField } from '../../machines/analysisRun.machine';
import { searchContributorLabels } from '../../machines/mixtureSearch.machine';
import { MixtureSearchActor, useBusy, useFieldErrors } from './mixture-search-actor';
import { FieldError, TextBox } from './text-box';

const DROPOUT_LABELS: readonly { value: DropoutChoice; label: string }[] = [
  { value: 'conservative', label: 'Estimated — conservative (Monte-Carlo 95th percentile under Hd)' },
  { value: 'maximum-likelihood', label: 'Estimated — maximum likelihood per hypothesis' },
  { value: 'all', label: 'Fixed, one value for all contributors' },
  { value: 'each', label: 'Fixed, one value per contributor' },
];

const CONTRIBUTOR_OPTIONS = Array.from({ length: MAX_MIXTURE_CONTRIBUTORS }, (_, i) => String(i + 1));

/** The mixture analysis: a select of the active ones; choosing one brings its parameters. */
function AnalysisChoice() {
  const id = useId();
  const actor = MixtureSearchActor.useActorRef();
  const analyses = MixtureSearchActor.useSelector((s) => s.context.analyses);
  const analysisId = MixtureSearchActor.useSelector((s) => s.context.analysisId);
  const error = useFieldErrors().analysis;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        Mixture analysis
      </label>
      <select id={id} className="input" value={analysisId ?? ''} aria-invalid={error ? true : undefined} onChange={(e) => actor.send({ type: 'analysis.choose', analysisId: e.target.value })}>
        {analyses.length === 0 ? <option value="">No active mixture analysis</option> : null}
        {analyses.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </select>
      {analyses.length === 0 ? <p className="field__hint">An administrator adds a mixture analysis under Analysis groups.</p> : null}
      <FieldError error={error} />
    </div>
  );
}

/** How drop-out is set, and the fixed values when it is fixed (one for all, or one per contributor in drop-out order). */
function DropoutField() {
  const id = useId();
  const actor = MixtureSearchActor.useActorRef();
  const dropout = MixtureSearchActor.useSelector((s) => s.context.parameters.dropout);
  const dropoutAll = MixtureSearchActor.useSelector((s) => s.context.parameters.dropoutAll);
  const dropoutEach = MixtureSearchActor.useSelector((s) => s.context.parameters.dropoutEach);
  const known = MixtureSearchActor.useSelector((s) => s.context.knownContributors.length);
  const errors = useFieldErrors();
  const labels = searchContributorLabels(dropoutEach.length, known);
  return (
    <fieldset className="mixture-parameters__dropout">
      <legend className="field__label">Drop-out</legend>
      {DROPOUT_LABELS.map((c) => (
        <label key={c.value} className="field--checkbox">
          <input type="radio" name={`${id}-dropout`} checked={dropout === c.value} onChange={() => actor.send({ type: 'parameters.chooseDropout', dropout: c.value })} />
          <span>{c.label}</span>
        </label>
      ))}
      {dropout === 'all' ? (
        <TextBox label="Drop-out for all contributors" inputMode="decimal" value={dropoutAll} error={errors['dropout.all']} onChange={(value) => actor.send({ type: 'parameters.edit', field: 'dropoutAll', value })} />
      ) : null}
      {dropout === 'each' ? (
        <div className="mixture-parameters__fields">
          {dropoutEach.map((value, i) => (
            <TextBox key={i} label={`Drop-out of ${labels[i]}`} inputMode="decimal" value={value} error={errors[`dropout.${i}`]} onChange={(v) => actor.send({ type: 'parameters.editDropout', contributor: i, value: v })} />
          ))}
        </div>
      ) : null}
      <FieldError error={errors.dropout} />
    </fieldset>
  );
}

/**
 * The search's parameters (issue 17): the mixture analysis and, prefilled from it, the number of contributors, the
 * drop-out, drop-in c and θ. The machine reads them; each wrong value says why beside its box.
 */
export function SearchParameters() {
  const id = useId();
  const actor = MixtureSearchActor.useActorRef();
  const contributors = MixtureSearchActor.useSelector((s) => s.context.parameters.contributors);
  const dropIn = MixtureSearchActor.useSelector((s) => s.context.parameters.dropIn);
  const theta = MixtureSearchActor.useSelector((s) => s.context.parameters.theta);
  const canReset = MixtureSearchActor.useSelector((s) => s.can({ type: 'parameters.reset' }));
  const busy = useBusy();
  const errors = useFieldErrors();
  const edit = (field: MixtureTextField) => (value: string) => actor.send({ type: 'parameters.edit', field, value });
  return (
    <fieldset className="calculator__role mixture-search__parameters" disabled={busy}>
      <legend>Mixture parameters</legend>
      <AnalysisChoice />
      <p className="field__hint">Prefilled from the analysis; changes apply to this search only.</p>
      <div className="mixture-parameters__fields">
        <div className={`field${errors.contributors ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor={`${id}-contributors`}>
            Number of contributors
          </label>
          <select
            id={`${id}-contributors`}
            className="input"
            value={contributors}
            aria-invalid={errors.contributors ? true : undefined}
            aria-describedby={errors.contributors ? `${id}-contributors-error` : `${id}-contributors-hint`}
            onChange={(e) => actor.send({ type: 'parameters.edit', field: 'contributors', value: e.target.value })}
          >
            {CONTRIBUTOR_OPTIONS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          <p className="field__hint" id={`${id}-contributors-hint`}>
            Under Hp the candidate and the known contributors, the rest unknowns.
          </p>
          {errors.contributors ? (
            <p className="field__error" id={`${id}-contributors-error`}>
              {errors.contributors}
            </p>
          ) : null}
        </div>
        <TextBox label="Drop-in (c)" inputMode="decimal" value={dropIn} error={errors.dropIn} hint="Chance of one allele from no contributor, weighed c·p." onChange={edit('dropIn')} />
        <TextBox label="θ" inputMode="decimal" value={theta} error={errors.theta} hint="Balding–Nichols co-ancestry correction." onChange={edit('theta')} />
      </div>
      <DropoutField />
      <div className="form__actions">
        <button type="button" className="button button--secondary" disabled={!canReset} onClick={() => actor.send({ type: 'parameters.reset' })}>
          Use the analysis’s parameters
        </button>
      </div>
    </fieldset>
  );
}
