import { useId, useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { MIXTURE_ROLES } from '../../../core/schemas/analyses';
import { MAX_MIXTURE_CONTRIBUTORS, type DropoutSetting, type MixtureSetting } from '../../../core/schemas/mixtures';
import { CheckboxField } from '../../ui/form/checkbox-field';
import { controlAttributes, Field, useFieldError } from '../../ui/form/field';

type DropoutChoice = 'conservative' | 'maximum-likelihood' | 'fixed';

const DROPOUT_CHOICES: readonly { value: DropoutChoice; label: string }[] = [
  { value: 'conservative', label: 'Estimated — conservative (Monte-Carlo 95th percentile under Hd)' },
  { value: 'maximum-likelihood', label: 'Estimated — maximum likelihood per hypothesis' },
  { value: 'fixed', label: 'Fixed' },
];

const CONTRIBUTOR_OPTIONS = Array.from({ length: MAX_MIXTURE_CONTRIBUTORS }, (_, i) => i + 1);

const toNumber = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));

/** Empty boxes: a fixed drop-out is the laboratory's own figure, so the form proposes none ("Required" until written). */
const blank = (count: number) => new Array<number | undefined>(count).fill(undefined) as number[];

/** The label of contributor `index`'s drop-out, in the order the calculator weighs them (core/schemas/mixtures DropoutSetting). */
export const contributorLabel = (index: number): string => (index === 0 ? 'Person of interest' : `Known contributor / Unknown ${index}`);

/** The fixed drop-out values for `contributors`: one for all stays one; one per contributor keeps its first values and adds empty boxes. */
export function resizeDropout(dropout: DropoutSetting, contributors: number): DropoutSetting {
  if (dropout.mode !== 'fixed' || dropout.values.length === 1) return dropout;
  const values = dropout.values.slice(0, contributors);
  return { mode: 'fixed', values: contributors === 1 ? values : [...values, ...blank(contributors - values.length)] };
}

function NumberBox({ name, label, hint }: { name: string; label: string; hint?: string }) {
  const { register } = useFormContext();
  return (
    <Field name={name} label={label} hint={hint} required>
      {(control) => <input className="input mixture-field__number" type="number" min={0} max={1} step="any" {...controlAttributes(control, true)} {...register(name, { setValueAs: toNumber })} />}
    </Field>
  );
}

/** A Mixture analysis's roles, fixed: the evidence (its first replicate) and the person of interest (core MIXTURE_ROLES). */
export function MixtureRoles() {
  const error = useFieldError('roles');
  return (
    <fieldset className={`roles-field${error ? ' field--invalid' : ''}`}>
      <legend className="field__label">Roles</legend>
      <p className="field__hint">A mixture analysis always compares these two; further replicates and known contributors are chosen in the calculator.</p>
      <ol className="roles-field__list">
        {MIXTURE_ROLES.map((role, i) => (
          <li key={role} className="roles-field__item">
            <span className="roles-field__position" aria-hidden="true">
              {i + 1}
            </span>
            <span>{role}</span>
          </li>
        ))}
      </ol>
      {error ? <p className="field__error">{error}</p> : null}
    </fieldset>
  );
}

/** The drop-out: estimated (conservative or maximum likelihood) or fixed, one value for all or one per contributor. */
function DropoutField({ mixture, set }: { mixture: MixtureSetting; set(next: MixtureSetting): void }) {
  const id = useId();
  const valuesError = useFieldError('mixture.dropout.values');
  const dropoutError = useFieldError('mixture.dropout');
  const error = valuesError ?? dropoutError;
  const { dropout, contributors } = mixture;
  // The fixed values a user wrote, kept while an estimate is chosen so choosing Fixed again brings them back.
  const lastFixed = useRef<number[]>(dropout.mode === 'fixed' ? dropout.values : blank(1));
  const choice: DropoutChoice = dropout.mode === 'fixed' ? 'fixed' : dropout.estimate;
  const choose = (next: DropoutChoice) => {
    if (dropout.mode === 'fixed') lastFixed.current = dropout.values;
    const values = lastFixed.current;
    set({ ...mixture, dropout: next === 'fixed' ? resizeDropout({ mode: 'fixed', values }, contributors) : { mode: 'estimated', estimate: next } });
  };
  const perContributor = dropout.mode === 'fixed' && dropout.values.length > 1;
  const setPerContributor = (on: boolean) => {
    if (dropout.mode !== 'fixed') return;
    const first = dropout.values[0] as number;
    set({ ...mixture, dropout: { mode: 'fixed', values: on ? new Array<number>(contributors).fill(first) : [first] } });
  };
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset className={`mixture-field__dropout${error ? ' field--invalid' : ''}`} aria-describedby={errorId}>
      <legend className="field__label">
        Drop-out<span aria-hidden="true"> *</span>
      </legend>
      {DROPOUT_CHOICES.map((c) => (
        <label key={c.value} className="field--checkbox">
          <input type="radio" name={`${id}-mode`} checked={choice === c.value} onChange={() => choose(c.value)} />
          {c.label}
        </label>
      ))}
      {dropout.mode === 'fixed' ? (
        <div className="mixture-field__fixed">
          {contributors > 1 ? (
            <div className="mixture-field__count" role="radiogroup" aria-label="Fixed drop-out values">
              <label className="field--checkbox">
                <input type="radio" name={`${id}-count`} checked={!perContributor} onChange={() => setPerContributor(false)} />
                One value for all contributors
              </label>
              <label className="field--checkbox">
                <input type="radio" name={`${id}-count`} checked={perContributor} onChange={() => setPerContributor(true)} />
                One value per contributor
              </label>
            </div>
          ) : null}
          {perContributor ? (
            <>
              <p className="field__hint">In the order the calculator weighs them: the person of interest, then the known contributors a run names, then unknowns. Each from 0 to below 1.</p>
              {dropout.values.map((_, i) => (
                <NumberBox key={i} name={`mixture.dropout.values.${i}`} label={contributorLabel(i)} />
              ))}
            </>
          ) : (
            <NumberBox name="mixture.dropout.values.0" label="Drop-out probability" hint="Every contributor's chance of losing an allele copy, from 0 to below 1." />
          )}
        </div>
      ) : (
        <p className="field__hint">
          {dropout.estimate === 'conservative'
            ? 'Both hypotheses at the 95th percentile of the drop-out values that reproduce the evidence’s allele count when simulated under Hd.'
            : 'Each hypothesis at its own maximum-likelihood drop-out; both estimates are shown beside every result.'}
        </p>
      )}
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * A Mixture analysis's parameters (core MixtureSetting, GENETICS.md "Mixtures"): the number of contributors, the
 * drop-out, the drop-in probability c, θ and whether the person of interest's alleles count under Hd and the
 * frequencies are normalized. The calculator may change each for a run.
 */
export function MixtureField() {
  const { setValue } = useFormContext();
  const mixture = useWatch({ name: 'mixture' }) as MixtureSetting | null | undefined;
  const error = useFieldError('mixture');
  const set = (next: MixtureSetting) => setValue('mixture', next, { shouldDirty: true });
  return (
    <fieldset className={`mixture-field${error ? ' field--invalid' : ''}`}>
      <legend className="field__label">Mixture parameters</legend>
      <p className="field__hint">The likelihoods come from the semi-continuous model (drop-out, drop-in, θ): there is no formula table. The calculator may change each parameter for a run.</p>
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      {mixture ? (
        <>
          <Field name="mixture.contributors" label="Number of contributors" hint="Under Hp the person of interest and the run's known contributors, the rest unknowns." required>
            {(control) => (
              <select
                className="input mixture-field__number"
                {...controlAttributes(control, true)}
                value={mixture.contributors}
                onChange={(e) => {
                  const contributors = Number(e.target.value);
                  set({ ...mixture, contributors, dropout: resizeDropout(mixture.dropout, contributors) });
                }}
              >
                {CONTRIBUTOR_OPTIONS.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <DropoutField mixture={mixture} set={set} />
          <NumberBox name="mixture.dropIn" label="Drop-in probability (c)" hint="The chance of one allele from no contributor at a marker, weighed c·p by its frequency p; from 0 (none) to below 1." />
          <NumberBox name="mixture.theta" label="θ" hint="Balding–Nichols co-ancestry correction (FST) of the population; from 0 (none) to below 1." />
          <CheckboxField
            name="mixture.personOfInterestTypedUnderHd"
            label="Count the person of interest's alleles under Hd (θ)"
            hint="Under Hd the person of interest is a typed non-contributor: their alleles enter θ's allele counts."
          />
          <CheckboxField name="mixture.normalizeFrequencies" label="Normalize frequencies after the minimum allele frequency rule" hint="Each marker's frequencies rescaled to sum to 1 once rare alleles are raised to the minimum." />
        </>
      ) : null}
    </fieldset>
  );
}
