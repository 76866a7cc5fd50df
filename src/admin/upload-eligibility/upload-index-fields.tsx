import { useWatch } from 'react-hook-form';
import { formatOneIn } from '../../../core/network/upload-eligibility';
import { SAMPLE_TYPES } from '../../../core/schemas/profiles';
import type { UploadEligibilityIndex, UploadEligibilityRulesUpdate } from '../../../core/schemas/upload-eligibility';
import { OptionalNumberField } from '../../ui/form/optional-number-field';
import { TextField } from '../../ui/form/text-field';
import { MultiChoiceField, type Choice } from '../search-rules/choice-fields';

/**
 * One index's rules. A sample type goes to one index at most, so one chosen in another index is offered disabled,
 * with that index named.
 */
export function UploadIndexFields({ at, index, names, coreCount }: { at: number; index: UploadEligibilityIndex; names: readonly string[]; coreCount: number }) {
  const indexes = useWatch<UploadEligibilityRulesUpdate, 'indexes'>({ name: 'indexes' });
  const rarity = useWatch<UploadEligibilityRulesUpdate, `indexes.${number}.rarityOneIn`>({ name: `indexes.${at}.rarityOneIn` });
  const takenBy = new Map<string, string>();
  (indexes ?? []).forEach((other, i) => {
    if (i !== at) for (const type of other.sampleTypes ?? []) takenBy.set(type, names[i] ?? '');
  });
  const choices: Choice[] = SAMPLE_TYPES.map((t) => (takenBy.has(t) ? { value: t, label: t, disabled: true, note: `In ${takenBy.get(t)}` } : { value: t, label: t }));
  const rarityHint = typeof rarity === 'number' && rarity >= 1 ? `A profile's match probability must be under 1 in ${formatOneIn(rarity)}.` : 'Empty: no rarity threshold.';
  return (
    <fieldset className="upload-index">
      <legend className="upload-index__name">{index.name}</legend>
      <MultiChoiceField name={`indexes.${at}.sampleTypes`} legend="Sample types uploaded to this index" choices={choices} />
      <div className="search-rule-form__pair">
        <TextField name={`indexes.${at}.minCoreLoci`} label="Minimum core loci" type="number" required hint={`Of the ${coreCount} CODIS core loci, how many must be typed.`} />
        <TextField name={`indexes.${at}.maxAllelesPerLocus`} label="Most alleles per locus" type="number" required hint="More at any locus and the profile stays here." />
        <OptionalNumberField name={`indexes.${at}.rarityOneIn`} label="Rarity threshold: 1 in" hint={rarityHint} min={1} />
      </div>
    </fieldset>
  );
}
