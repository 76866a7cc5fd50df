import { contributorLabels, hdContributorLabels, readMixtureParameters, type AnalysisRunEvent, type MixtureDraft } from '../../machines/analysisRun.machine';
import { MixtureParameterFields } from './mixture-parameter-fields';

interface MixtureParametersProps {
  parameters: MixtureDraft;
  /** The run's known contributors (chosen or not): they name the per-contributor drop-outs and raise the least number of contributors. */
  knownContributors: number;
  disabled: boolean;
  send(event: AnalysisRunEvent): void;
}

/**
 * A mixture run's parameters (issue 17), prefilled from the analysis: the number of contributors, the drop-out
 * (fixed for all or per contributor, or estimated), drop-in c, θ and both switches. The machine reads them; each
 * wrong value says why beside its box.
 */
export function MixtureParameters({ parameters: p, knownContributors, disabled, send }: MixtureParametersProps) {
  const errors = readMixtureParameters(p, knownContributors).errors ?? {};
  const labels = contributorLabels(p.dropoutEach.length, knownContributors);
  return (
    <fieldset className="calculator__role mixture-parameters" disabled={disabled}>
      <legend>Mixture parameters</legend>
      <p className="field__hint">Prefilled from the analysis; changes apply to this run only.</p>
      <MixtureParameterFields
        values={p}
        errors={{ contributors: errors.contributors, dropIn: errors.dropIn, theta: errors.theta, dropoutAll: errors.dropout?.all, dropoutEach: (i) => errors.dropout?.[String(i)], dropoutHdEach: (i) => errors.dropout?.[`hd${i}`] }}
        contributorLabels={labels}
        hpHolds="the person of interest"
        onEdit={(field, value) => send({ type: 'parameters.edit', field, value })}
        onChooseDropout={(dropout) => send({ type: 'parameters.chooseDropout', dropout })}
        onEditDropout={(contributor, value) => send({ type: 'parameters.editDropout', contributor, value })}
        hdContributorLabels={hdContributorLabels(p.dropoutEach.length, knownContributors)}
        onEditDropoutHd={(contributor, value) => send({ type: 'parameters.editDropoutHd', contributor, value })}
      />
      <label className="field--checkbox">
        <input type="checkbox" checked={p.personOfInterestTypedUnderHd} onChange={(e) => send({ type: 'parameters.check', field: 'personOfInterestTypedUnderHd', checked: e.target.checked })} />
        <span>Person of interest counted under Hd (θ)</span>
      </label>
      <label className="field--checkbox">
        <input type="checkbox" checked={p.normalizeFrequencies} onChange={(e) => send({ type: 'parameters.check', field: 'normalizeFrequencies', checked: e.target.checked })} />
        <span>Normalize frequencies (after the minimum allele frequency rule)</span>
      </label>
      <label className="field--checkbox">
        <input type="checkbox" checked={p.estimateDropout} onChange={(e) => send({ type: 'parameters.check', field: 'estimateDropout', checked: e.target.checked })} />
        <span>Show both hypotheses’ drop-out estimates (can take seconds on a large stain)</span>
      </label>
      <div className="form__actions">
        <button type="button" className="button button--secondary" onClick={() => send({ type: 'parameters.reset' })}>
          Use the analysis’s parameters
        </button>
      </div>
    </fieldset>
  );
}
