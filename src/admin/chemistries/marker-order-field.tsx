import { useController } from 'react-hook-form';
import { useFieldError } from '../../ui/form/field';
import { MarkerOrderEditor, type MarkerChoice } from './marker-order-editor';

interface MarkerOrderFieldProps {
  /** Every marker whose name the form may need, by id: the stored configuration and the choices. */
  known: ReadonlyMap<string, MarkerChoice>;
  choices: readonly MarkerChoice[];
  choiceNoun: string;
  readOnly: boolean;
}

/** The form's `markerIds` (ordered ids, as the API takes them) edited as a named, ordered list. */
export function MarkerOrderField({ known, choices, choiceNoun, readOnly }: MarkerOrderFieldProps) {
  const { field } = useController({ name: 'markerIds' });
  const error = useFieldError('markerIds');
  const ids = (field.value as string[] | undefined) ?? [];
  return (
    <MarkerOrderEditor
      value={ids.map((id) => known.get(id) ?? { id, name: 'Unknown marker' })}
      onChange={(next) => field.onChange(next.map((m) => m.id))}
      choices={choices}
      choiceNoun={choiceNoun}
      readOnly={readOnly}
      error={error}
      required
    />
  );
}
