import { useEffect } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import type { ImportMarker } from '../../core/schemas/profile-imports';
import type { ProfileKind } from '../../core/schemas/profiles';
import type { ImportAssignment } from '../../machines/profileImport.machine';
import { AssignmentFields } from './assignment-fields';
import type { ProfileFormOptions } from './profiles-api';
import type { ProfileFormData } from './use-profile-form-data';

/** Names listed in the kit warning before it stops with an ellipsis. */
const NAMES_SHOWN = 10;

/**
 * The file's markers a kit does not hold, worded for the screen, or null when the kit holds them
 * all: "2 of the file’s 24 markers are not in GlobalFiler: SE33, Penta D — they are kept after the
 * kit’s markers" (the server orders a profile's markers by its kit, the others after them).
 */
export function kitMarkersWarning(fileMarkers: readonly ImportMarker[], chemistry: ProfileFormOptions['chemistries'][number]): string | null {
  const inKit = new Set(chemistry.markers.map((m) => m.id));
  const outside = fileMarkers.filter((m) => !inKit.has(m.markerId));
  if (outside.length === 0) return null;
  const names = outside.slice(0, NAMES_SHOWN).map((m) => m.name).join(', ') + (outside.length > NAMES_SHOWN ? '…' : '');
  const one = outside.length === 1;
  return `${outside.length} of the file’s ${fileMarkers.length} markers ${one ? 'is' : 'are'} not in ${chemistry.name}: ${names} — ${one ? 'it is' : 'they are'} kept after the kit’s markers`;
}

/** The kind of profile a file holds, told by its markers (each kit lists its markers with their kind); null when they are mixed or unknown. */
export function kindOfMarkers(fileMarkers: readonly ImportMarker[], chemistries: ProfileFormOptions['chemistries']): ProfileKind | null {
  const kindById = new Map(chemistries.flatMap((c) => c.markers.map((m) => [m.id, m.kind] as const)));
  const kinds = new Set(fileMarkers.flatMap((m) => kindById.get(m.markerId) ?? []));
  return kinds.size === 1 ? [...kinds][0]! : null;
}

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
  data: ProfileFormData;
  kind: ProfileKind;
  /** The file's markers: the screen warns of those the chosen kit does not hold. */
  fileMarkers: readonly ImportMarker[];
  chemistryHint: string;
  disabled: boolean;
  onChange(patch: Partial<ImportAssignment>): void;
}

/**
 * Where the imported profiles go (chemistry, sample type, source, item, laboratory, comments), the
 * same fields as the profile form. The import machine holds the values; each change is sent to it.
 */
export function ImportAssignmentForm({ assignment, data, kind, fileMarkers, chemistryHint, disabled, onChange }: ImportAssignmentFormProps) {
  const form = useForm<FormValues>({ defaultValues: toForm(assignment) });
  // The machine fills in some fields itself (the suggested kit, the file's sample type): the form
  // shows them. What the user typed comes back equal, so it is not reset under their hands.
  useEffect(() => {
    const shown = form.getValues();
    const wanted = toForm(assignment);
    if ((Object.keys(wanted) as (keyof FormValues)[]).some((k) => (shown[k] ?? '') !== (wanted[k] ?? ''))) form.reset(wanted);
  }, [assignment, form]);
  useEffect(() => {
    const subscription = form.watch((values) => onChange(fromForm(values as Partial<FormValues>)));
    return () => subscription.unsubscribe();
  }, [form, onChange]);
  const chemistry = data.options.chemistries.find((c) => c.id === assignment.chemistryId);
  const warning = chemistry ? kitMarkersWarning(fileMarkers, chemistry) : null;
  return (
    <FormProvider {...form}>
      <form className="form profile-import__assignment" noValidate onSubmit={(e) => e.preventDefault()} aria-label="Assignment of the chosen profiles">
        <fieldset className="form__fields" disabled={disabled}>
          <AssignmentFields
            options={data.options}
            items={data.items}
            parties={data.parties}
            kind={kind}
            chemistryHint={chemistryHint}
          />
        </fieldset>
        <p className={warning ? 'notice notice--warning' : 'visually-hidden'} role="status">
          {warning}
        </p>
      </form>
    </FormProvider>
  );
}
