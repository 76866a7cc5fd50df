import { SAMPLE_TYPES, type ProfileKind } from '../../core/schemas/profiles';
import { SelectField, type SelectOption } from '../ui/form/select-field';
import { TextareaField } from '../ui/form/textarea-field';
import { ChemistryField } from './chemistry-field';
import type { ProfileFormOptions } from './profiles-api';

const SAMPLE_TYPE_OPTIONS = SAMPLE_TYPES.map((t) => ({ value: t, label: t }));
const named = (records: readonly { id: string; name: string }[]) => records.map((r) => ({ value: r.id, label: r.name }));

/** The Item select's choices, and why some may be missing. */
export interface CaseItemChoices {
  options: readonly SelectOption[];
  hint?: string | undefined;
}

export interface AssignmentFieldsProps {
  options: ProfileFormOptions;
  /** The case's physical items to choose from (see useProfileFormData). */
  items: CaseItemChoices;
  /** The case's involved parties, for Taken from (issue 18). */
  parties: CaseItemChoices;
  kind?: ProfileKind | undefined;
  chemistryHint?: string | undefined;
  chemistryLocked?: boolean;
}

/**
 * What a profile is typed with and where it came from (spec 3 Profile): chemistry, sample type,
 * sample source, the case's item, the involved party it was taken from, laboratory and comments. The profile form and the import's
 * confirmation share them, inside a react-hook-form form.
 */
export function AssignmentFields({ options, items, parties, kind, chemistryHint, chemistryLocked = false }: AssignmentFieldsProps) {
  return (
    <>
      <ChemistryField chemistries={options.chemistries} kind={kind} hint={chemistryHint} disabled={chemistryLocked} />
      <SelectField name="sampleType" label="Sample Type" required placeholder="Choose a sample type" options={SAMPLE_TYPE_OPTIONS} />
      <SelectField emptyIsNull name="sampleSourceId" label="Source" placeholder="No source" options={named(options.sampleSources)} />
      <SelectField
        emptyIsNull
        name="physicalItemId"
        label="Item"
        placeholder="No item"
        options={items.options}
        {...(items.hint ? { hint: items.hint } : {})}
      />
      <SelectField
        emptyIsNull
        name="involvedPartyId"
        label="Taken from"
        placeholder="No involved party"
        options={parties.options}
        hint={parties.hint ?? 'The involved party of the case the sample was taken from.'}
      />
      <SelectField emptyIsNull name="laboratoryId" label="Source Laboratory" placeholder="No laboratory" options={named(options.laboratories)} />
      <TextareaField name="comments" label="Comments" rows={3} />
    </>
  );
}
