import { useMemo, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { INSTANCE_LEVELS, type ConnectionTest, type InstanceSettings, type LowerInstance } from '../../../core/schemas/network';
import { toEditorError } from '../../../machines/recordEditor.machine';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { useDocumentTitle } from '../../app/use-document-title';
import { LoadState } from '../../profiles/load-state';
import { useLoaded } from '../../profiles/use-loaded';
import { AlertNotice } from '../../ui/alert-notice';
import { SelectField } from '../../ui/form/select-field';
import { serverFieldErrors } from '../../ui/form/server-field-errors';
import { TextField } from '../../ui/form/text-field';
import { SubmitActions } from '../../ui/form/submit-actions';
import { RecordTable } from '../../ui/record-table';
import { LowerInstanceRegistration } from './lower-instance-form';
import { networkApi, type NetworkCalls } from './network-api';

interface SettingsForm {
  name: string;
  level: InstanceSettings['level'];
  upperUrl: string;
  upperClientId: string;
  /** Blank keeps the stored secret: it is never sent back to the browser. */
  upperClientSecret: string;
}

const FIELDS = ['name', 'level', 'upperUrl', 'upperClientId', 'upperClientSecret'] as const;
const formOf = (s: InstanceSettings): SettingsForm => ({ name: s.name, level: s.level, upperUrl: s.upperUrl ?? '', upperClientId: s.upperClientId ?? '', upperClientSecret: '' });

/**
 * Network (issue 32): this instance's name and level, its upper instance (address and client credentials, the secret
 * write-only) with Test connection, and the lower instances registered here, with the form that registers one.
 */
export function NetworkSettingsPage() {
  const api = useApi();
  const calls = useMemo(() => networkApi(api), [api]);
  const settings = useLoaded('network-settings', () => calls.settings());
  const lower = useLoaded('lower-instances', () => calls.lowerInstances());
  const clients = useLoaded('lower-instance-clients', () => calls.clients());
  const title = routes.NetworkSettings.title;
  useDocumentTitle(title);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{title}</h1>
      </div>
      <LoadState loaded={settings} missing="The instance settings could not be found.">
        {(value) => <SettingsSection key={value.version} settings={value} calls={calls} onSaved={settings.replace} />}
      </LoadState>
      <section aria-labelledby="lower-instances-title">
        <h2 id="lower-instances-title">Lower instances</h2>
        <LoadState loaded={lower} missing="The lower instances could not be found.">
          {(items) => <LowerInstanceTable items={items} />}
        </LoadState>
        <LoadState loaded={clients} missing="The service clients could not be found.">
          {(value) => <LowerInstanceRegistration calls={calls} clients={value} onRegistered={lower.reload} />}
        </LoadState>
      </section>
    </section>
  );
}

function SettingsSection({ settings, calls, onSaved }: { settings: InstanceSettings; calls: NetworkCalls; onSaved(value: InstanceSettings): void }) {
  const form = useForm<SettingsForm>({ defaultValues: formOf(settings) });
  const [failure, setFailure] = useState<string | null>(null);
  const [test, setTest] = useState<ConnectionTest | 'testing' | null>(null);
  const busy = form.formState.isSubmitting;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const saved = await calls.saveSettings({
        name: values.name,
        level: values.level,
        upperUrl: values.upperUrl.trim() || null,
        upperClientId: values.upperClientId.trim() || null,
        ...(values.upperClientSecret ? { upperClientSecret: values.upperClientSecret } : {}),
        version: settings.version,
      });
      onSaved(saved);
    } catch (err) {
      for (const { path, message } of serverFieldErrors(err)) {
        const field = FIELDS.find((f) => f === path.replace(/^\//, ''));
        if (field) form.setError(field, { message });
      }
      setFailure(toEditorError(err).message);
    }
  });
  const testConnection = async () => {
    setTest('testing');
    try {
      setTest(await calls.testConnection());
    } catch (err) {
      setTest({ ok: false, error: toEditorError(err).message });
    }
  };
  return (
    <section className="form" aria-labelledby="instance-settings-title">
      <h2 id="instance-settings-title">This instance</h2>
      <FormProvider {...form}>
        <form noValidate onSubmit={(event) => void submit(event)} aria-busy={busy}>
          <AlertNotice text={failure} />
          <fieldset className="form__fields" disabled={busy}>
            <TextField name="name" label="Name" hint="How other instances name this one, e.g. the laboratory or the state index." required />
            <SelectField name="level" label="Level" options={INSTANCE_LEVELS.map((l) => ({ value: l, label: l }))} required />
          </fieldset>
          <fieldset className="form__fields" disabled={busy}>
            <legend>Upper instance</legend>
            <TextField name="upperUrl" label="Address" hint="The upper instance's address, e.g. https://sdis.example.gov." />
            <TextField name="upperClientId" label="Client id" hint="The service client the upper instance created for this one." />
            <TextField
              name="upperClientSecret"
              label="Client secret"
              type="password"
              hint={settings.upperClientSecretSet ? 'A secret is stored (never shown). Leave blank to keep it.' : 'Shown once when the upper instance created the client.'}
            />
          </fieldset>
          <SubmitActions busy={busy} label="Save" busyLabel="Saving…">
            <button type="button" className="button button--secondary" disabled={busy || test === 'testing'} onClick={() => void testConnection()}>
              {test === 'testing' ? 'Testing…' : 'Test connection'}
            </button>
          </SubmitActions>
        </form>
      </FormProvider>
      <ConnectionResult test={test} />
    </section>
  );
}

function ConnectionResult({ test }: { test: ConnectionTest | 'testing' | null }) {
  if (test === null || test === 'testing') return null;
  if (test.ok && test.upper) {
    return (
      <p className="notice" role="status">
        Connected to “{test.upper.name}” ({test.upper.level} level).
      </p>
    );
  }
  return (
    <p className="notice notice--negative" role="alert">
      {test.error ?? 'The connection failed.'}
    </p>
  );
}

function LowerInstanceTable({ items }: { items: LowerInstance[] }) {
  return (
    <RecordTable columns={['Name', 'Service client', 'Laboratories']} empty="No lower instance is registered here." isEmpty={items.length === 0}>
      {items.map((item) => (
        <tr key={item.id}>
          <th scope="row">{item.name}</th>
          <td>{item.serviceClientName}</td>
          <td>{item.laboratories.map((l) => l.name).join(', ')}</td>
        </tr>
      ))}
    </RecordTable>
  );
}
