import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState, type FormEvent } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { NamedRecordInput } from '../../core/schemas/named-record';
import { toEditorError } from '../../machines/recordEditor.machine';
import { TextField } from '../ui/form/text-field';
import { DialogFormFooter } from '../ui/form/dialog-form-footer';

interface NewNameDialogProps {
  open: boolean;
  /** e.g. "New case type". */
  title: string;
  /** Adds the record; a rejection (a name already taken) is shown in the dialog. */
  create(name: string): Promise<{ id: string; name: string }>;
  onCreated(record: { id: string; name: string }): void;
  onCancel(): void;
}

/**
 * Adds a record that is just a name (a case type, an organization) without leaving the form it is
 * chosen in. Validated with the server's own schema ("Required" when empty).
 */
export function NewNameDialog({ open, title, create, onCreated, onCancel }: NewNameDialogProps) {
  const form = useForm<NamedRecordInput>({ resolver: zodResolver(NamedRecordInput), defaultValues: { name: '' } });
  const [failure, setFailure] = useState<string | null>(null);
  const busy = form.formState.isSubmitting;
  useEffect(() => {
    if (open) {
      form.reset({ name: '' });
      setFailure(null);
    }
  }, [open]);
  const add = form.handleSubmit(async ({ name }) => {
    setFailure(null);
    try {
      onCreated(await create(name));
    } catch (err) {
      setFailure(toEditorError(err).message);
    }
  });
  const submit = (event: FormEvent) => {
    // The dialog is drawn in a portal but its events still bubble to the case form: do not submit that.
    event.stopPropagation();
    void add(event);
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next || busy ? undefined : onCancel())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog__title">{title}</Dialog.Title>
          <FormProvider {...form}>
            <form onSubmit={submit} noValidate aria-busy={busy}>
              <TextField name="name" label="Name" required />
              <DialogFormFooter failure={failure} busy={busy} onCancel={onCancel} submitLabel="Add" busyLabel="Adding…" />
            </form>
          </FormProvider>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
