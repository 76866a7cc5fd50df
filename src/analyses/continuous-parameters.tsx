import { useId } from 'react';
import { MAX_CONTINUOUS_CONTRIBUTORS } from '../../core/schemas/continuous';
import { readContinuousDraft, type ContinuousDraft, type ContinuousRunEvent, type GammaField, type Hypothesis } from '../../machines/continuousRun.machine';
import { FieldError, TextBox } from '../ui/form/text-box';

const CONTRIBUTOR_OPTIONS = Array.from({ length: MAX_CONTINUOUS_CONTRIBUTORS }, (_, i) => String(i + 1));

/** The contributors in the order of the mixture proportions: Hp the person of interest, the known contributors, the unknowns; Hd the known contributors, the unknowns. */
export function continuousContributors(contributors: number, known: number, hypothesis: Hypothesis): string[] {
  const typed = hypothesis === 'hp' ? ['Person of interest', ...Array.from({ length: known }, (_, i) => `Known contributor ${i + 1}`)] : Array.from({ length: known }, (_, i) => `Known contributor ${i + 1}`);
  return Array.from({ length: contributors }, (_, i) => typed[i] ?? `Unknown ${i - typed.length + 1}`);
}

const GAMMA_FIELDS: { field: Exclude<GammaField, 'mx'>; label: string; shown: (d: ContinuousDraft) => boolean }[] = [
  { field: 'mu', label: 'Peak height expectation (μ, RFU)', shown: () => true },
  { field: 'sigma', label: 'Coefficient of variation (σ)', shown: () => true },
  { field: 'beta', label: 'Degradation slope (β)', shown: (d) => d.degradation },
  { field: 'xiB', label: 'Backward stutter (ξB)', shown: (d) => d.backwardStutter },
  { field: 'xiF', label: 'Forward stutter (ξF)', shown: (d) => d.forwardStutter },
];

interface ContinuousParametersProps {
  draft: ContinuousDraft;
  /** Known contributors (chosen or not): they name the mixture proportions and raise the least number of contributors. */
  knownContributors: number;
  disabled: boolean;
  send(event: ContinuousRunEvent): void;
}

/**
 * The continuous model's settings for a run (issue 31, GENETICS.md "Continuous model"): the number of contributors,
 * the model's parts (degradation, stutters), drop-in c and λ, θ, the analytical threshold (the kit's or typed), and
 * either a maximum-likelihood fit (its starts and seed) or fixed parameters per hypothesis. Each wrong value says why.
 */
export function ContinuousParameters({ draft: d, knownContributors, disabled, send }: ContinuousParametersProps) {
  const id = useId();
  const errors = readContinuousDraft(d, knownContributors).errors ?? {};
  const edit = (field: Parameters<typeof textEvent>[0]) => (value: string) => send(textEvent(field, value));
  const check = (field: 'degradation' | 'backwardStutter' | 'forwardStutter' | 'personOfInterestTypedUnderHd' | 'normalizeFrequencies', label: string) => (
    <label className="field--checkbox">
      <input type="checkbox" checked={d[field]} onChange={(e) => send({ type: 'parameters.check', field, checked: e.target.checked })} />
      <span>{label}</span>
    </label>
  );
  const contributors = d.fixed.hp.mx.length;
  return (
    <fieldset className="calculator__role mixture-parameters" disabled={disabled}>
      <legend>Continuous model</legend>
      <div className="mixture-parameters__fields">
        <div className={`field${errors.contributors ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor={`${id}-contributors`}>
            Number of contributors
          </label>
          <select id={`${id}-contributors`} className="input" value={d.contributors} aria-invalid={errors.contributors ? true : undefined} onChange={(e) => send(textEvent('contributors', e.target.value))}>
            {CONTRIBUTOR_OPTIONS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          <FieldError error={errors.contributors} />
        </div>
        <TextBox label="Drop-in (c)" inputMode="decimal" value={d.dropIn} error={errors.dropIn} hint="Chance of a peak from no contributor, weighed c·p." onChange={edit('dropIn')} />
        <TextBox label="Drop-in peak height rate (λ)" inputMode="decimal" value={d.dropInLambda} error={errors.dropInLambda} hint="A drop-in’s height over the threshold is exponential with rate λ." onChange={edit('dropInLambda')} />
        <TextBox label="θ" inputMode="decimal" value={d.theta} error={errors.theta} hint="Balding–Nichols co-ancestry correction." onChange={edit('theta')} />
      </div>
      <fieldset className="mixture-parameters__dropout">
        <legend className="field__label">Model</legend>
        {check('degradation', 'Degradation (peak heights fall with fragment size)')}
        {check('backwardStutter', 'Backward stutter (one repeat shorter)')}
        {check('forwardStutter', 'Forward stutter (one repeat longer; needs backward stutter)')}
      </fieldset>
      <fieldset className="mixture-parameters__dropout">
        <legend className="field__label">Analytical threshold</legend>
        <label className="field--checkbox">
          <input type="radio" name={`${id}-threshold`} checked={d.threshold === 'kit'} onChange={() => send({ type: 'parameters.chooseThreshold', threshold: 'kit' })} />
          <span>The stain’s kit’s (per dye where set)</span>
        </label>
        <label className="field--checkbox">
          <input type="radio" name={`${id}-threshold`} checked={d.threshold === 'typed'} onChange={() => send({ type: 'parameters.chooseThreshold', threshold: 'typed' })} />
          <span>Typed, for every marker</span>
        </label>
        {d.threshold === 'typed' ? <TextBox label="Analytical threshold (RFU)" inputMode="decimal" value={d.analyticalThreshold} error={errors.analyticalThreshold} onChange={edit('analyticalThreshold')} /> : null}
      </fieldset>
      {check('personOfInterestTypedUnderHd', 'Person of interest counted under Hd (θ)')}
      {check('normalizeFrequencies', 'Normalize frequencies (after the minimum allele frequency rule)')}
      <fieldset className="mixture-parameters__dropout">
        <legend className="field__label">Parameters</legend>
        <label className="field--checkbox">
          <input type="radio" name={`${id}-mode`} checked={d.mode === 'fit'} onChange={() => send({ type: 'parameters.chooseMode', mode: 'fit' })} />
          <span>Fitted by maximum likelihood under each hypothesis</span>
        </label>
        <label className="field--checkbox">
          <input type="radio" name={`${id}-mode`} checked={d.mode === 'fixed'} onChange={() => send({ type: 'parameters.chooseMode', mode: 'fixed' })} />
          <span>Fixed, as typed per hypothesis</span>
        </label>
        {d.mode === 'fit' ? (
          <div className="mixture-parameters__fields">
            <TextBox label="Starts" inputMode="numeric" value={d.starts} error={errors.starts} hint="The first from the data, the others drawn from the seed; the result says how many agree." onChange={edit('starts')} />
            <TextBox label="Seed" inputMode="numeric" value={d.seed} error={errors.seed} hint="The same seed gives the same fit, bit for bit." onChange={edit('seed')} />
          </div>
        ) : (
          (['hp', 'hd'] as const).map((h) => (
            <fieldset key={h} className="mixture-parameters__fields">
              <legend className="field__label">{h === 'hp' ? 'Under Hp' : 'Under Hd'}</legend>
              {continuousContributors(contributors, knownContributors, h).map((who, i) => (
                <TextBox key={who} label={`Mixture proportion of ${who} (${h === 'hp' ? 'Hp' : 'Hd'})`} inputMode="decimal" value={d.fixed[h].mx[i] ?? ''} error={errors[`${h}.mx.${i}`]} onChange={(value) => send({ type: 'parameters.editFixed', hypothesis: h, field: 'mx', index: i, value })} />
              ))}
              {GAMMA_FIELDS.filter((g) => g.shown(d)).map((g) => (
                <TextBox key={g.field} label={`${g.label} (${h === 'hp' ? 'Hp' : 'Hd'})`} inputMode="decimal" value={d.fixed[h][g.field]} error={errors[`${h}.${g.field}`]} onChange={(value) => send({ type: 'parameters.editFixed', hypothesis: h, field: g.field, value })} />
              ))}
              <FieldError error={errors[`${h}.mx`]} />
            </fieldset>
          ))
        )}
      </fieldset>
      <div className="form__actions">
        <button type="button" className="button button--secondary" onClick={() => send({ type: 'parameters.reset' })}>
          Back to the defaults
        </button>
      </div>
    </fieldset>
  );
}

function textEvent(field: 'contributors' | 'dropIn' | 'dropInLambda' | 'theta' | 'analyticalThreshold' | 'starts' | 'seed', value: string): ContinuousRunEvent {
  return { type: 'parameters.edit', field, value };
}
