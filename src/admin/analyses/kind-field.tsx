import { useRef, type ChangeEvent } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { ANALYSIS_KINDS, isMixtureKind, MIXTURE_ROLES, type Analysis, type AnalysisInput, type AnalysisKind } from '../../../core/schemas/analyses';
import type { MixtureSetting } from '../../../core/schemas/mixtures';
import { SelectField } from '../../ui/form/select-field';
import { controlAttributes, Field } from '../../ui/form/field';
import { DEFAULT_MIXTURE } from './analysis-form';

const KIND_OPTIONS = ANALYSIS_KINDS.map((k) => ({ value: k, label: k }));
const AUTOSOMAL = { value: 'Autosomal', label: 'Autosomal' };
const PROFILE_KIND_OPTIONS = [AUTOSOMAL, { value: 'YStr', label: 'Y-STR' }];

const KIND_HINT =
  'Computational: each formula gives a number, and constants may be used. Exclusion: each allele expression is an exclusion or not. ' +
  'Pedigree: a drawn pedigree whose typed persons are the roles, computed exactly (autosomal). ' +
  'Mixture: the semi-continuous likelihood ratio of an evidence profile and a person of interest, from drop-out, drop-in and θ (autosomal). ' +
  'Continuous mixture: the likelihood ratio from the stain’s peak heights (gamma model), its parameters fixed or fitted in the calculator (autosomal). ' +
  'Once the analysis has formulae, the kind, the profile kind and the number of roles stay as they are.';

/**
 * The analysis's kind. Choosing Mixture or Continuous mixture fixes the roles and the profile kind as below (a
 * Continuous mixture holds no parameters). Choosing Mixture fixes the roles (Evidence, Person of interest), the profile kind (autosomal)
 * and brings its parameters (as last set, as stored, or the seed's); choosing another kind again clears the
 * parameters and gives back the roles named before.
 */
export function KindField({ stored }: { stored: Analysis | null }) {
  const { register, getValues, setValue } = useFormContext<AnalysisInput>();
  const rolesBefore = useRef<string[] | null>(null);
  const mixtureBefore = useRef<MixtureSetting | null>(null);
  const dirty = { shouldDirty: true };
  const onChange = (e: ChangeEvent<HTMLSelectElement>) => {
    const kind = e.target.value as AnalysisKind;
    const mixture = getValues('mixture') ?? null;
    if (mixture) mixtureBefore.current = mixture;
    if (isMixtureKind(kind)) {
      // Both mixture kinds weigh an evidence profile and a person of interest; only Mixture holds parameters.
      if (!rolesBefore.current) rolesBefore.current = getValues('roles');
      setValue('roles', [...MIXTURE_ROLES], dirty);
      setValue('profileKind', 'Autosomal', dirty);
      setValue('mixture', kind === 'Mixture' ? (mixture ?? mixtureBefore.current ?? stored?.mixture ?? DEFAULT_MIXTURE) : null, dirty);
    } else {
      if (mixture) setValue('mixture', null, dirty);
      if (rolesBefore.current) setValue('roles', rolesBefore.current, dirty);
      rolesBefore.current = null;
    }
  };
  return (
    <Field name="kind" label="Kind" hint={KIND_HINT} required>
      {(control) => (
        <select className="input" {...controlAttributes(control, true)} {...register('kind', { onChange })}>
          {KIND_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The profile kind: autosomal or Y-STR; a Mixture analysis weighs autosomal profiles only. */
export function ProfileKindField() {
  const kind = useWatch({ name: 'kind' }) as AnalysisKind | undefined;
  const mixture = kind !== undefined && isMixtureKind(kind);
  return (
    <SelectField
      name="profileKind"
      label="Profile kind"
      options={mixture ? [AUTOSOMAL] : PROFILE_KIND_OPTIONS}
      required
      hint={mixture ? 'Mixture analyses weigh autosomal profiles.' : undefined}
    />
  );
}
