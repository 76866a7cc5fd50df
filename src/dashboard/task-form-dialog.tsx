import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState, type FormEvent } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { TaskRequestInput, type TaskRequest } from '../../core/schemas/task-requests';
import { toEditorError, type EditorError } from '../../machines/recordEditor.machine';
import { ServerFieldErrors, useServerFieldErrors } from '../admin/analyses/server-field-errors';
import { SelectField, type SelectOption } from '../ui/form/select-field';
import { TextareaField } from '../ui/form/textarea-field';
import { TextField } from '../ui/form/text-field';
import { SaveErrorNotice } from '../ui/record/save-error-notice';
import { DueDateField } from './due-date-field';

/** What the assignee and case choices offer for one organization. */
export interface TaskFormOptions {
  members: readonly SelectOption[];
  /** Null when the user may not read cases: the case choice is not offered. */
  cases: readonly SelectOption[] | null;
}

interface TaskFormDialogProps {
  open: boolean;
  /** The task being edited, or null to add one. */
  task: TaskRequest | null;
  /** Organizations a new task may belong to; the choice shows only when there is more than one. */
  organizations: readonly SelectOption[];
  /** Reads the assignee and case choices of an organization. */
  loadOptions(organizationId: string): Promise<TaskFormOptions>;
  save(values: TaskRequestInput): Promise<TaskRequest>;
  onSaved(task: TaskRequest): void;
  onCancel(): void;
}

const valuesOf = (task: TaskRequest | null, organizationId: string): TaskRequestInput => ({
  organizationId: task?.organizationId ?? organizationId,
  title: task?.title ?? '',
  description: task?.description ?? '',
  assignedToId: task?.assignedTo?.id ?? null,
  caseId: task?.case?.id ?? null,
  dueDate: task?.dueDate ?? null,
});

/**
 * Adds or edits a task request in a dialog: title, description, assignee from the organization's
 * users, optional case and due date. Validated with the server's schema; the server's own field
 * errors (an assignee of another organization…) show on their fields.
 */
export function TaskFormDialog({ open, task, organizations, loadOptions, save, onSaved, onCancel }: TaskFormDialogProps) {
  const form = useForm<TaskRequestInput>({ resolver: zodResolver(TaskRequestInput), defaultValues: valuesOf(task, organizations[0]?.value ?? '') });
  const { errors, capture } = useServerFieldErrors();
  const [failure, setFailure] = useState<EditorError | null>(null);
  const [options, setOptions] = useState<TaskFormOptions | null>(null);
  const organizationId = form.watch('organizationId');
  const busy = form.formState.isSubmitting;

  useEffect(() => {
    if (!open) return;
    form.reset(valuesOf(task, organizations[0]?.value ?? ''));
    setFailure(null);
  }, [open, task]);

  useEffect(() => {
    if (!open || !organizationId) return;
    let current = true;
    setOptions(null);
    // Another organization's users and cases do not fit: a new task's choices start empty again.
    if (!task) {
      form.setValue('assignedToId', null);
      form.setValue('caseId', null);
    }
    loadOptions(organizationId).then(
      (loaded) => current && setOptions(loaded),
      (err: unknown) => current && setFailure(toEditorError(err)),
    );
    return () => {
      current = false;
    };
  }, [open, organizationId]);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      onSaved(await capture(save(values)));
    } catch (err) {
      setFailure(toEditorError(err));
    }
  });
  const onSubmit = (event: FormEvent) => {
    event.stopPropagation();
    void submit(event);
  };

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next || busy ? undefined : onCancel())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title className="dialog__title">{task ? `Edit task “${task.title}”` : 'New task request'}</Dialog.Title>
          <FormProvider {...form}>
            <form onSubmit={onSubmit} noValidate aria-busy={busy}>
              <ServerFieldErrors errors={errors} />
              {!task && organizations.length > 1 ? <SelectField name="organizationId" label="Organization" required options={organizations} /> : null}
              {options ? (
                <>
                  <TextField name="title" label="Title" required />
                  <TextareaField name="description" label="Description" rows={3} />
                  <SelectField name="assignedToId" label="Assigned to" options={options.members} placeholder="Nobody yet" emptyIsNull />
                  {options.cases ? <SelectField name="caseId" label="Case" options={options.cases} placeholder="No case" emptyIsNull /> : null}
                  <DueDateField name="dueDate" label="Due date" />
                </>
              ) : failure ? null : (
                <p role="status" aria-busy="true">
                  Loading…
                </p>
              )}
              {failure ? <SaveErrorNotice error={failure} /> : null}
              <div className="dialog__actions">
                <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>
                  Cancel
                </button>
                <button type="submit" className="button button--primary" disabled={busy || !options}>
                  {busy ? 'Saving…' : task ? 'Save' : 'Add task'}
                </button>
              </div>
            </form>
          </FormProvider>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
