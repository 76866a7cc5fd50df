import { useEffect, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { SelectField } from '../ui/form/select-field';
import { NewNameDialog } from './new-name-dialog';

interface ChoiceWithNewFieldProps {
  name: string;
  label: string;
  placeholder: string;
  options: readonly { id: string; name: string }[];
  /** Offered only to an administrator with scope All (spec 6); left out otherwise. */
  adding?: {
    /** The button, e.g. "New case type…". */
    label: string;
    /** The dialog's title, e.g. "New case type". */
    title: string;
    create(name: string): Promise<{ id: string; name: string }>;
    /** Puts the new record among the options; it is then chosen. */
    onCreated(record: { id: string; name: string }): void;
  };
}

/** A required choice of a named record, with an optional "New …" that adds one and chooses it. */
export function ChoiceWithNewField({ name, label, placeholder, options, adding }: ChoiceWithNewFieldProps) {
  const { setValue, formState } = useFormContext();
  const [open, setOpen] = useState(false);
  // A native select keeps only values it has an option for: the new one is chosen once it is drawn.
  const [choose, setChoose] = useState<string | null>(null);
  useEffect(() => {
    if (choose && options.some((o) => o.id === choose)) {
      setValue(name, choose, { shouldDirty: true, shouldValidate: formState.isSubmitted });
      setChoose(null);
    }
  }, [choose, options]);
  const select = <SelectField name={name} label={label} required placeholder={placeholder} options={options.map((o) => ({ value: o.id, label: o.name }))} />;
  if (!adding) return select;
  return (
    <div className="case-form__choice">
      {select}
      <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
        {adding.label}
      </button>
      <NewNameDialog
        open={open}
        title={adding.title}
        create={adding.create}
        onCreated={(record) => {
          adding.onCreated(record);
          setChoose(record.id);
          setOpen(false);
        }}
        onCancel={() => setOpen(false)}
      />
    </div>
  );
}
