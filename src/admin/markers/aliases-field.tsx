import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { get, useController, useFormContext, type FieldError } from 'react-hook-form';
import './markers.css';

const HINT = 'Other spellings that files and kits use for this marker, e.g. VWA for vWA. Type one and press Enter or Add alias; commas separate several.';

/** The messages zod gave for single aliases (aliases.0, aliases.3, …), which the field as a whole does not carry. */
function aliasErrors(errors: unknown): string[] {
  const list = get(errors, 'aliases') as (FieldError | undefined)[] | FieldError | undefined;
  if (!list) return [];
  if (!Array.isArray(list)) return list.message ? [list.message] : [];
  return list.flatMap((e) => (e?.message ? [e.message] : []));
}

/**
 * The marker's aliases as removable chips plus an entry box. Text still in the box is added when the
 * box loses focus, so an alias typed but not confirmed is not lost on Save.
 */
export function AliasesField() {
  const id = useId();
  const { formState } = useFormContext();
  const { field } = useController({ name: 'aliases' });
  const aliases = (field.value as string[] | undefined) ?? [];
  const [text, setText] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState<string | null>(null);
  const errors = aliasErrors(formState.errors);

  const addTyped = () => {
    const typed = text.split(',').map((a) => a.trim()).filter(Boolean);
    if (typed.length === 0) return;
    const repeated = typed.filter((a, i) => aliases.includes(a) || typed.indexOf(a) !== i);
    setNote(repeated.length > 0 ? `${repeated.join(', ')} ${repeated.length === 1 ? 'is' : 'are'} already listed` : null);
    field.onChange([...aliases, ...typed.filter((a, i) => !aliases.includes(a) && typed.indexOf(a) === i)]);
    setText('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      // Enter adds the alias instead of submitting the form.
      e.preventDefault();
      addTyped();
    }
  };
  const remove = (alias: string) => {
    field.onChange(aliases.filter((a) => a !== alias));
    // The chip and its button are gone; keep the keyboard user in the field.
    input.current?.focus();
  };
  const messages = [...(note ? [note] : []), ...errors];

  return (
    <div className={`field${errors.length > 0 ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        Aliases
      </label>
      {aliases.length > 0 ? (
        <ul className="aliases" aria-label="Current aliases">
          {aliases.map((alias) => (
            <li key={alias} className="aliases__chip">
              <span>{alias}</span>
              <button type="button" className="aliases__remove" aria-label={`Remove alias ${alias}`} onClick={() => remove(alias)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="aliases__entry">
        <input
          id={id}
          ref={input}
          className="input"
          value={text}
          autoComplete="off"
          aria-describedby={`${id}-hint${messages.length > 0 ? ` ${id}-error` : ''}`}
          aria-invalid={errors.length > 0 || undefined}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={addTyped}
        />
        <button type="button" className="button button--secondary" onClick={addTyped}>
          Add alias
        </button>
      </div>
      <p className="field__hint" id={`${id}-hint`}>
        {HINT}
      </p>
      {messages.length > 0 ? (
        <p className="field__error" id={`${id}-error`}>
          {messages.join('. ')}
        </p>
      ) : null}
    </div>
  );
}
