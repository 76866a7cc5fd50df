import { useState, type ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { FormProvider, useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { toEditorError } from '../../machines/recordEditor.machine';
import { TextField } from '../ui/form/text-field';

export interface PasswordDialogField<V> {
  name: Path<V> & string;
  label: string;
  autoComplete: 'current-password' | 'new-password';
}

interface PasswordDialogProps<V extends FieldValues> {
  open: boolean;
  title: string;
  /** What the dialog is about (the account, the rules). */
  description: ReactNode;
  /** A core/ zod schema (plus any form-only check, such as the repeated password). */
  schema: z.ZodType<V, V>;
  fields: readonly PasswordDialogField<V>[];
  submitLabel: string;
  /** Shown once the call succeeded, in place of the form. */
  doneMessage: string;
  onSubmit(values: V): Promise<void>;
  onClose(): void;
}

/**
 * A dialog asking for passwords: an administrator setting a user's password, or a user changing
 * their own. The call's failure is shown in the dialog and the typed passwords stay; success says
 * so and offers Close. Nothing typed survives closing.
 */
export function PasswordDialog<V extends FieldValues>(props: PasswordDialogProps<V>) {
  const { open, title, description, schema, fields, submitLabel, doneMessage, onSubmit, onClose } = props;
  const empty = Object.fromEntries(fields.map((f) => [f.name, ''])) as DefaultValues<V>;
  const form = useForm<V, unknown, V>({ resolver: zodResolver(schema as never) as never, defaultValues: empty });
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const busy = form.formState.isSubmitting;

  const close = () => {
    if (busy) return;
    form.reset(empty);
    setError(null);
    setDone(false);
    onClose();
  };
  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await onSubmit(values);
      setDone(true);
    } catch (err) {
      setError(toEditorError(err).message);
    }
  });

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title className="dialog__title">{title}</Dialog.Title>
          <Dialog.Description asChild>
            <div>{description}</div>
          </Dialog.Description>
          {done ? (
            <>
              <p role="status">{doneMessage}</p>
              <div className="dialog__actions">
                <button type="button" className="button button--primary" onClick={close}>
                  Close
                </button>
              </div>
            </>
          ) : (
            <FormProvider {...form}>
              <form noValidate onSubmit={submit} aria-busy={busy}>
                {error ? (
                  <p className="notice notice--negative" role="alert">
                    {error}
                  </p>
                ) : null}
                <fieldset className="form__fields" disabled={busy}>
                  {fields.map((f) => (
                    <TextField key={f.name} name={f.name} label={f.label} type="password" autoComplete={f.autoComplete} required />
                  ))}
                </fieldset>
                <div className="dialog__actions">
                  <button type="button" className="button button--secondary" onClick={close} disabled={busy}>
                    Cancel
                  </button>
                  <button type="submit" className="button button--primary" disabled={busy}>
                    {busy ? 'Saving…' : submitLabel}
                  </button>
                </div>
              </form>
            </FormProvider>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
