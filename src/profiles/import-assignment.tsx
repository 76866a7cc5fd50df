import { useEffect } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import type { ProfileKind } from '../../core/schemas/profiles';
import type { ImportAssignment } from '../../machines/profileImport.machine';
import { AssignmentFields } from './assignment-fields';
import type { ProfileFormData } from './use-profile-form-data';

/** The form's values: a select's empty choice is '' where the machine holds null. */
type FormValues = Omit<ImportAssignment, 'chemistryId' | 'sampleType'> & { chemistryId: string; sampleType: string };

const toForm = (a: ImportAssignment): FormValues => ({ ...a, chemistryId: a.chemistryId ?? '', sampleType: a.sampleType ?? '' });
function fromForm(values: Partial<FormValues>): Partial<ImportAssignment> {
  const { chemistryId, sampleType, ...rest } = values;
  return {
    ...rest,
    ...(chemistryId !== undefined ? { chemistryId: chemistryId || null } : {}),
    ...(sampleType !== undefined ? { sampleType: (sampleType || null) as ImportAssignment['sampleType'] } : {}),
  };
}

interface ImportAssignmentFormProps {
  assignment: ImportAssignment;
  /** Changes when a file is parsed (again): the form then shows what the machine filled in. */
  resetKey: unknown;
  data: ProfileFormData;
  kind: ProfileKind;
  chemistryHint: string;
  disabled: boolean;
  onChange(patch: Partial<ImportAssignment>): void;
}

/**
 * Where the imported profiles go (chemistry, sample type, source, item, laboratory, comments), the
 * same fields as the profile form. The import machine holds the values; each change is sent to it.
 */
export function ImportAssignmentForm({ assignment, resetKey, data, kind, chemistryHint, disabled, onChange }: ImportAssignmentFormProps) {
  const form = useForm<FormValues>({ defaultValues: toForm(assignment) });
  useEffect(() => {
    form.reset(toForm(assignment));
  }, [resetKey]);
  useEffect(() => {
    const subscription = form.watch((values) => onChange(fromForm(values as Partial<FormValues>)));
    return () => subscription.unsubscribe();
  }, [form, onChange]);
  return (
    <FormProvider {...form}>
      <form className="form profile-import__assignment" noValidate onSubmit={(e) => e.preventDefault()} aria-label="Assignment of the chosen profiles">
        <fieldset className="form__fields" disabled={disabled}>
          <AssignmentFields
            options={data.options}
            items={data.items}
            kind={kind}
            chemistryHint={chemistryHint}
          />
        </fieldset>
      </form>
    </FormProvider>
  );
}
