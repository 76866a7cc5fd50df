import { useId } from 'react';
import { MAX_MIXTURE_CONTRIBUTORS } from '../../core/schemas/mixtures';
import { contributorLabels, readMixtureParameters, type AnalysisRunEvent, type DropoutChoice, type MixtureDraft, type MixtureTextField } from '../../machines/analysisRun.machine';

const DROPOUT_LABELS: readonly { value: DropoutChoice; label: string }[] = [
  { value: 'conservative', label: 'Estimated — conservative (Monte-Carlo 95th percentile under Hd)' },
  { value: 'maximum-likelihood', label: 'Estimated — maximum likelihood per hypothesis' },
  { value: 'all', label: 'Fixed, one value for all contributors' },
  { value: 'each', label: 'Fixed, one value per contributor' },
];

const CONTRIBUTOR_OPTIONS = Array.from({ length: MAX_MIXTURE_CONTRIBUTORS }, (_, i) => String(i + 1));

/** A probability typed as text (a half-typed "0." stays on screen), its message beside it. */
function ProbabilityBox({ label, value, hint, error, onChange }: { label: string; value: string; hint?: string; error: string | undefined; onChange(value: string): void }) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="input" type="text" inputMode="decimal" autoComplete="off" value={value} aria-invalid={error ? true : undefined} aria-describedby={describedBy} onChange={(e) => onChange(e.target.value)} />
      {hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

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
  const id = useId();
  const errors = readMixtureParameters(p, knownContributors).errors ?? {};
  const edit = (field: MixtureTextField) => (value: string) => send({ type: 'parameters.edit', field, value });
  const labels = contributorLabels(p.dropoutEach.length, knownContributors);
  return (
    <fieldset className="calculator__role mixture-parameters" disabled={disabled}>
      <legend>Mixture parameters</legend>
      <p className="field__hint">Prefilled from the analysis; changes apply to this run only.</p>
      <div className="mixture-parameters__fields">
        <div className={`field${errors.contributors ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor={`${id}-contributors`}>
            Number of contributors
          </label>
          <select
            id={`${id}-contributors`}
            className="input"
            value={p.contributors}
            aria-invalid={errors.contributors ? true : undefined}
            aria-describedby={errors.contributors ? `${id}-contributors-error` : `${id}-contributors-hint`}
            onChange={(e) => send({ type: 'parameters.edit', field: 'contributors', value: e.target.value })}
          >
            {CONTRIBUTOR_OPTIONS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          <p className="field__hint" id={`${id}-contributors-hint`}>
            Under Hp the person of interest and the known contributors, the rest unknowns.
          </p>
          {errors.contributors ? (
            <p className="field__error" id={`${id}-contributors-error`}>
              {errors.contributors}
            </p>
          ) : null}
        </div>
        <ProbabilityBox label="Drop-in (c)" value={p.dropIn} error={errors.dropIn} hint="Chance of one allele from no contributor, weighed c·p." onChange={edit('dropIn')} />
        <ProbabilityBox label="θ" value={p.theta} error={errors.theta} hint="Balding–Nichols co-ancestry correction." onChange={edit('theta')} />
      </div>
      <fieldset className="mixture-parameters__dropout">
        <legend className="field__label">Drop-out</legend>
        {DROPOUT_LABELS.map((c) => (
          <label key={c.value} className="field--checkbox">
            <input type="radio" name={`${id}-dropout`} checked={p.dropout === c.value} onChange={() => send({ type: 'parameters.chooseDropout', dropout: c.value })} />
            <span>{c.label}</span>
          </label>
        ))}
        {p.dropout === 'all' ? <ProbabilityBox label="Drop-out for all contributors" value={p.dropoutAll} error={errors.dropout?.all} onChange={edit('dropoutAll')} /> : null}
        {p.dropout === 'each' ? (
          <div className="mixture-parameters__fields">
            {p.dropoutEach.map((value, i) => (
              <ProbabilityBox
                key={i}
                label={`Drop-out of ${labels[i]}`}
                value={value}
                error={errors.dropout?.[String(i)]}
                onChange={(v) => send({ type: 'parameters.editDropout', contributor: i, value: v })}
              />
            ))}
          </div>
        ) : null}
        {p.dropout === 'each' ? <p className="field__hint">Under Hd the unknown in the person of interest’s place takes the person of interest’s value.</p> : null}
      </fieldset>
      <label className="field--checkbox">
        <input type="checkbox" checked={p.personOfInterestTypedUnderHd} onChange={(e) => send({ type: 'parameters.check', field: 'personOfInterestTypedUnderHd', checked: e.target.checked })} />
        <span>Person of interest counted under Hd (θ)</span>
      </label>
      <label className="field--checkbox">
        <input type="checkbox" checked={p.normalizeFrequencies} onChange={(e) => send({ type: 'parameters.check', field: 'normalizeFrequencies', checked: e.target.checked })} />
        <span>Normalize frequencies (after the minimum allele frequency rule)</span>
      </label>
      <div className="form__actions">
        <button type="button" className="button button--secondary" onClick={() => send({ type: 'parameters.reset' })}>
          Use the analysis’s parameters
        </button>
      </div>
    </fieldset>
  );
}
