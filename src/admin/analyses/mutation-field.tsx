import { useId } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import type { MutationModelInput, MutationSetting } from '../../../core/schemas/pedigrees';
import { controlAttributes, Field, useFieldError } from '../../ui/form/field';

type Sex = 'female' | 'male';
type ModelName = MutationModelInput['model'];

const MODELS: readonly { value: Exclude<ModelName, 'custom'>; label: string }[] = [
  { value: 'trivial', label: 'No mutation' },
  { value: 'equal', label: 'Equal' },
  { value: 'proportional', label: 'Proportional' },
  { value: 'stepwise', label: 'Stepwise' },
  { value: 'onestep', label: 'One-step' },
];

/** What an untouched analysis starts from: a commonly used STR rate per meiosis, higher in men (the seed's). */
const DEFAULT_RATE: Record<Sex, number> = { female: 0.001, male: 0.003 };
const DEFAULT_RATE2 = 0.00001;
const DEFAULT_RANGE = 0.1;

/** A sex's model as the select changes it: the rate carries over between models, stepwise adds its defaults. */
export function modelFor(name: Exclude<ModelName, 'custom'>, current: MutationModelInput | undefined, sex: Sex): MutationModelInput {
  const rate = current && 'rate' in current ? current.rate : DEFAULT_RATE[sex];
  if (name === 'trivial') return { model: 'trivial' };
  if (name === 'stepwise') return { model: 'stepwise', rate, rate2: current?.model === 'stepwise' ? current.rate2 : DEFAULT_RATE2, range: current?.model === 'stepwise' ? current.range : DEFAULT_RANGE };
  return { model: name, rate };
}

/** The models a pairwise/trio analysis starts from when it begins to weigh mutation. */
export const defaultMutation = (): MutationSetting => ({ female: modelFor('stepwise', undefined, 'female'), male: modelFor('stepwise', undefined, 'male'), markers: [] });

const NO_MUTATION: MutationSetting = { female: { model: 'trivial' }, male: { model: 'trivial' }, markers: [] };
const toNumber = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));

function NumberInput({ name, label, hint }: { name: string; label: string; hint: string }) {
  const { register } = useFormContext();
  return (
    <Field name={name} label={label} hint={hint} required>
      {(control) => <input className="input" type="number" min={0} step="any" {...controlAttributes(control, true)} {...register(name, { setValueAs: toNumber })} />}
    </Field>
  );
}

function SexModel({ sex, setting, onChange }: { sex: Sex; setting: MutationSetting; onChange(next: MutationSetting): void }) {
  const id = useId();
  const model = setting[sex];
  const error = useFieldError(`mutation.${sex}`);
  const Sex = sex === 'female' ? 'Female' : 'Male';
  return (
    <div className={`mutation-field__sex${error ? ' field--invalid' : ''}`}>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          {Sex} model
        </label>
        <select
          id={id}
          className="input"
          value={model.model}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => onChange({ ...setting, [sex]: modelFor(e.target.value as Exclude<ModelName, 'custom'>, model, sex) })}
        >
          {MODELS.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
          {model.model === 'custom' ? (
            <option value="custom" disabled>
              Custom matrix (kept as saved)
            </option>
          ) : null}
        </select>
        {error ? (
          <p className="field__error" id={`${id}-error`}>
            {error}
          </p>
        ) : null}
      </div>
      {model.model === 'custom' ? (
        <p className="field__hint">
          A {model.matrix.length}×{model.matrix.length} matrix given by the laboratory, kept as saved; choosing another model replaces it.
        </p>
      ) : null}
      {'rate' in model ? <NumberInput name={`mutation.${sex}.rate`} label={`${Sex} mutation rate`} hint="Per meiosis, between 0 and 1." /> : null}
      {model.model === 'stepwise' ? (
        <>
          <NumberInput name={`mutation.${sex}.rate2`} label={`${Sex} microvariant rate`} hint="Steps that change the fractional part (e.g. 9.3 → 10), between 0 and 1." />
          <NumberInput name={`mutation.${sex}.range`} label={`${Sex} range`} hint="How fast a longer step gets less likely (each step this many times the one before), above 0." />
        </>
      ) : null}
    </div>
  );
}

/**
 * The analysis's mutation models (GENETICS.md "Mutation models"), female and male. A Pedigree analysis always has
 * the section (no model: no mutation); a pairwise/trio analysis chooses between its formula table's μ and A and a
 * model weighed through its pedigree. Markers with their own models are listed and kept as saved.
 */
export function MutationField({ optional }: { optional: boolean }) {
  const { setValue } = useFormContext();
  const mutation = useWatch({ name: 'mutation' }) as MutationSetting | null | undefined;
  const error = useFieldError('mutation');
  const set = (next: MutationSetting | null) => setValue('mutation', next, { shouldDirty: true });
  const setting = mutation ?? NO_MUTATION;
  const markers = mutation?.markers ?? [];
  return (
    <fieldset className={`mutation-field${error ? ' field--invalid' : ''}`}>
      <legend className="field__label">Mutation</legend>
      {optional ? (
        <div className="field field--checkbox">
          <input id="mutation-weighed" type="checkbox" checked={Boolean(mutation)} onChange={(e) => set(e.target.checked ? defaultMutation() : null)} />
          <label htmlFor="mutation-weighed">Weigh mutation through the pedigree (instead of μ and A of the formula table)</label>
        </div>
      ) : null}
      {error ? <p className="field__error">{error}</p> : null}
      {optional && !mutation ? null : (
        <>
          <p className="field__hint">Every marker takes these models unless it has its own.</p>
          <div className="mutation-field__sexes">
            <SexModel sex="female" setting={setting} onChange={set} />
            <SexModel sex="male" setting={setting} onChange={set} />
          </div>
          {markers.length > 0 ? (
            <p className="field__hint">
              Markers with their own models, kept as saved (not edited here): {markers.map((m) => m.marker).join(', ')}.
            </p>
          ) : null}
        </>
      )}
    </fieldset>
  );
}
