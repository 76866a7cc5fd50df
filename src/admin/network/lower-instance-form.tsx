import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { RegisterLowerInstanceBody, type ServiceClient } from '../../../core/schemas/network';
import { toEditorError } from '../../../machines/recordEditor.machine';
import { AlertNotice } from '../../ui/alert-notice';
import { SelectField } from '../../ui/form/select-field';
import { serverFieldErrors } from '../../ui/form/server-field-errors';
import { TextareaField } from '../../ui/form/textarea-field';
import { TextField } from '../../ui/form/text-field';
import { SubmitActions } from '../../ui/form/submit-actions';
import type { NetworkCalls } from './network-api';

/** The laboratories as typed, one a line; blank lines are no laboratory. */
const linesOf = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l !== '');

/** The form's fields: the API's body, but the laboratories typed one a line and checked by the API's own rules. */
const LowerInstanceForm = z.object({
  name: RegisterLowerInstanceBody.shape.name,
  serviceClientId: z.string().min(1, 'Choose the service client the instance signs in with'),
  laboratories: z.string().superRefine((text, ctx) => {
    const checked = RegisterLowerInstanceBody.shape.laboratories.safeParse(linesOf(text));
    if (!checked.success) ctx.addIssue({ code: 'custom', message: checked.error.issues[0]!.message });
  }),
});
type LowerInstanceForm = z.infer<typeof LowerInstanceForm>;
const EMPTY: LowerInstanceForm = { name: '', serviceClientId: '', laboratories: '' };
const FIELDS = ['name', 'serviceClientId', 'laboratories'] as const;

/**
 * Registers a lower instance on the upper one (issue 32): its name, the service client it signs in with (live ones
 * only) and the laboratories it sends for, created here as organizations. Each field shows its own error, the
 * browser's check first and then the server's; a refusal without a field (a taken name) shows above the form.
 */
export function LowerInstanceRegistration({ calls, clients, onRegistered }: { calls: NetworkCalls; clients: ServiceClient[]; onRegistered(): void }) {
  const form = useForm<LowerInstanceForm>({ resolver: zodResolver(LowerInstanceForm), defaultValues: EMPTY });
  const [failure, setFailure] = useState<string | null>(null);
  const busy = form.formState.isSubmitting;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await calls.registerLowerInstance({ name: values.name, serviceClientId: values.serviceClientId, laboratories: linesOf(values.laboratories) });
      form.reset(EMPTY);
      onRegistered();
    } catch (err) {
      for (const { path, message } of serverFieldErrors(err)) {
        // `/laboratories/2` is a line of the one laboratories field.
        const field = FIELDS.find((f) => path.replace(/^\//, '').split('/')[0] === f);
        if (field) form.setError(field, { message });
      }
      setFailure(toEditorError(err).message);
    }
  });
  const options = clients.filter((c) => !c.revokedAt).map((c) => ({ value: c.id, label: c.name }));
  return (
    <section className="form" aria-labelledby="register-lower-instance-title">
      <h2 id="register-lower-instance-title">Register a lower instance</h2>
      <FormProvider {...form}>
        <form noValidate onSubmit={(event) => void submit(event)} aria-busy={busy}>
          <AlertNotice text={failure} />
          <fieldset className="form__fields" disabled={busy}>
            <TextField name="name" label="Instance name" hint="How this instance names it, e.g. the laboratory's instance." required />
            <SelectField name="serviceClientId" label="Signs in as" options={options} placeholder="Choose a service client" hint="The service client created for it under Service clients." required />
            <TextareaField name="laboratories" label="Laboratories" rows={4} hint="One a line: the laboratories it sends for, created here as organizations (read-only)." required />
          </fieldset>
          <SubmitActions busy={busy} label="Register" busyLabel="Registering…" />
        </form>
      </FormProvider>
    </section>
  );
}
