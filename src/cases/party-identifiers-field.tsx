import { useFieldArray, useFormContext } from 'react-hook-form';
import { IDENTIFIER_KINDS, IDENTIFIER_KIND_LABELS } from '../../core/identifier-kinds';
import { MAX_PARTY_IDENTIFIERS, type InvolvedPartyInput } from '../../core/schemas/cases';
import { useFieldError } from '../ui/form/field';
import { SelectField } from '../ui/form/select-field';
import { TextField } from '../ui/form/text-field';
import './cases.css';

const KIND_OPTIONS = IDENTIFIER_KINDS.map((k) => ({ value: k, label: IDENTIFIER_KIND_LABELS[k] }));

/** An involved party's identifiers (issue 18): each a kind and a value, added and removed in place, up to ten. */
export function PartyIdentifiersField() {
  const { control } = useFormContext<InvolvedPartyInput>();
  const { fields, append, remove } = useFieldArray({ control, name: 'identifiers' });
  const listError = useFieldError('identifiers');
  return (
    <fieldset className="party-identifiers">
      <legend>Identifiers</legend>
      {fields.length === 0 ? <p className="field__hint">No identifiers (national id, passport, arrest number, …).</p> : null}
      {fields.map((field, i) => (
        <div key={field.id} className="party-identifiers__row" role="group" aria-label={`Identifier ${i + 1}`}>
          <SelectField name={`identifiers.${i}.kind`} label="Kind" required options={KIND_OPTIONS} />
          <TextField name={`identifiers.${i}.value`} label="Value" required />
          <button type="button" className="button button--secondary" onClick={() => remove(i)} aria-label={`Remove identifier ${i + 1}`}>
            Remove
          </button>
        </div>
      ))}
      {listError ? <p className="field__error">{listError}</p> : null}
      {fields.length < MAX_PARTY_IDENTIFIERS ? (
        <button type="button" className="button button--secondary" onClick={() => append({ kind: 'national-id', value: '' })}>
          Add identifier
        </button>
      ) : null}
    </fieldset>
  );
}
