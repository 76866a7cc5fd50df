import { useId } from 'react';
import { searchContributorLabels, searchHdContributorLabels } from '../../machines/mixtureSearch.machine';
import { MixtureParameterFields } from '../analyses/mixture-parameter-fields';
import { FieldError } from '../ui/form/text-box';
import { MixtureSearchActor, useBusy, useFieldErrors } from './mixture-search-actor';

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

/**
 * The search's parameters (issue 17): the mixture analysis and, prefilled from it, the number of contributors, the
 * drop-out, drop-in c and θ. The machine reads them; each wrong value says why beside its box.
 */
export function SearchParameters() {
  const actor = MixtureSearchActor.useActorRef();
  const parameters = MixtureSearchActor.useSelector((s) => s.context.parameters);
  const known = MixtureSearchActor.useSelector((s) => s.context.knownContributors.length);
  const canReset = MixtureSearchActor.useSelector((s) => s.can({ type: 'parameters.reset' }));
  const busy = useBusy();
  const errors = useFieldErrors();
  return (
    <fieldset className="calculator__role mixture-search__parameters" disabled={busy}>
      <legend>Mixture parameters</legend>
      <AnalysisChoice />
      <p className="field__hint">Prefilled from the analysis; changes apply to this search only.</p>
      <MixtureParameterFields
        values={parameters}
        errors={{ contributors: errors.contributors, dropIn: errors.dropIn, theta: errors.theta, dropout: errors.dropout, dropoutAll: errors['dropout.all'], dropoutEach: (i) => errors[`dropout.${i}`], dropoutHdEach: (i) => errors[`dropout.hd${i}`] }}
        contributorLabels={searchContributorLabels(parameters.dropoutEach.length, known)}
        hpHolds="the candidate"
        onEdit={(field, value) => actor.send({ type: 'parameters.edit', field, value })}
        onChooseDropout={(dropout) => actor.send({ type: 'parameters.chooseDropout', dropout })}
        onEditDropout={(contributor, value) => actor.send({ type: 'parameters.editDropout', contributor, value })}
        hdContributorLabels={searchHdContributorLabels(parameters.dropoutEach.length, known)}
        onEditDropoutHd={(contributor, value) => actor.send({ type: 'parameters.editDropoutHd', contributor, value })}
      />
      <label className="field--checkbox">
        <input type="checkbox" checked={parameters.personOfInterestTypedUnderHd} onChange={(e) => actor.send({ type: 'parameters.check', field: 'personOfInterestTypedUnderHd', checked: e.target.checked })} />
        <span>Candidate counted under Hd (θ)</span>
      </label>
      <label className="field--checkbox">
        <input type="checkbox" checked={parameters.normalizeFrequencies} onChange={(e) => actor.send({ type: 'parameters.check', field: 'normalizeFrequencies', checked: e.target.checked })} />
        <span>Normalize frequencies (after the minimum allele frequency rule)</span>
      </label>
      <div className="form__actions">
        <button type="button" className="button button--secondary" disabled={!canReset} onClick={() => actor.send({ type: 'parameters.reset' })}>
          Use the analysis’s parameters
        </button>
      </div>
    </fieldset>
  );
}
