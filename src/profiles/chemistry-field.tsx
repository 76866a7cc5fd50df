import { useFormContext } from 'react-hook-form';
import { MARKER_KINDS } from '../../core/schemas/markers';
import type { ProfileKind } from '../../core/schemas/profiles';
import { controlAttributes, Field } from '../ui/form/field';
import { kindLabel } from './profile-columns';
import type { ProfileFormOptions } from './profiles-api';

interface ChemistryFieldProps {
  chemistries: ProfileFormOptions['chemistries'];
  /** Only chemistries of this kind (a profile keeps its kind); every kind, grouped, when absent. */
  kind?: ProfileKind | undefined;
  hint?: string | undefined;
  disabled?: boolean;
}

/** The chemistry (kit) a profile is typed with, grouped by kind (spec 3: Y-STR or autosomal chemistries). */
export function ChemistryField({ chemistries, kind, hint, disabled }: ChemistryFieldProps) {
  const { register } = useFormContext();
  const kinds = kind ? [kind] : MARKER_KINDS;
  return (
    <Field name="chemistryId" label="Chemistry" required {...(hint ? { hint } : {})}>
      {(control) => (
        <select className="input" disabled={disabled} {...controlAttributes(control, true)} {...register('chemistryId')}>
          <option value="">Choose a chemistry</option>
          {kinds.map((k) => (
            <optgroup key={k} label={kindLabel(k)}>
              {chemistries
                .filter((c) => c.kind === k)
                .map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
      )}
    </Field>
  );
}
