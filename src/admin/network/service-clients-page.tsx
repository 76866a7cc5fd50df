import { useMemo, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import type { ServiceClient } from '../../../core/schemas/network';
import { toEditorError } from '../../../machines/recordEditor.machine';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { useDocumentTitle } from '../../app/use-document-title';
import { formatDateTime } from '../../cases/format';
import { LoadState } from '../../profiles/load-state';
import { useLoaded } from '../../profiles/use-loaded';
import { AlertNotice } from '../../ui/alert-notice';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { CopyableSecret } from '../../ui/copyable-secret';
import { useEmbeddedProvider } from '../../account/use-embedded-provider';
import { SelectField } from '../../ui/form/select-field';
import { serverFieldErrors } from '../../ui/form/server-field-errors';
import { TextField } from '../../ui/form/text-field';
import { SubmitActions } from '../../ui/form/submit-actions';
import { RecordTable } from '../../ui/record-table';
import { useConfirmedAction } from '../../ui/use-confirmed-action';
import { networkApi, type CreatedClient, type NetworkCalls } from './network-api';
// The once-shown box looks as on the access tokens page (issue 18).
import '../../account/account.css';

export const SECRET_SHOWN_ONCE = 'Copy this secret now: it will not be shown again. Whoever holds it can call this instance as this client.';

interface ClientForm {
  name: string;
  organizationId: string | null;
  externalClientId: string;
}
const EMPTY: ClientForm = { name: '', organizationId: null, externalClientId: '' };

/**
 * Service clients (issue 32): the OAuth 2 client-credentials clients another instance or a script signs in with.
 * A new client's secret is shown once, here; revoking asks first, and the client's tokens stop working at once.
 */
export function ServiceClientsPage() {
  const api = useApi();
  const calls = useMemo(() => networkApi(api), [api]);
  const loaded = useLoaded('service-clients', () => calls.clients());
  const organizations = useLoaded('service-client-organizations', async () => (await api.GET('/api/organizations', { params: { query: { pageSize: 500, sort: 'name:asc' } } })).data?.items ?? []);
  const [created, setCreated] = useState<CreatedClient | null>(null);
  const title = routes.ServiceClients.title;
  useDocumentTitle(title);
  const options = organizations.status === 'loaded' ? organizations.value.map((o) => ({ value: o.id, label: o.name })) : [];

  return (
    <section className="page access-tokens" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{title}</h1>
      </div>
      <p>
        A service client lets another Locus instance (a lower or upper level of the network) or a script call this instance with the OAuth 2 client-credentials
        grant. It reaches the network calls only, never a case or a profile, until it is revoked.
      </p>
      <NewClientForm
        calls={calls}
        options={options}
        onCreated={(client) => {
          setCreated(client);
          loaded.reload();
        }}
      />
      {created ? <CreatedClientBox created={created} onDone={() => setCreated(null)} /> : null}
      <section aria-labelledby="service-clients-list-title">
        <h2 id="service-clients-list-title">Clients</h2>
        <LoadState loaded={loaded} missing="The service clients could not be found.">
          {(clients) => <ClientTable clients={clients} calls={calls} onRevoked={loaded.reload} />}
        </LoadState>
      </section>
    </section>
  );
}

function NewClientForm({ calls, options, onCreated }: { calls: NetworkCalls; options: { value: string; label: string }[]; onCreated(client: CreatedClient): void }) {
  const form = useForm<ClientForm>({ defaultValues: EMPTY });
  const [failure, setFailure] = useState<string | null>(null);
  const busy = form.formState.isSubmitting;
  // Under an external identity provider that provider issues the client: its id is named here, its secret kept there.
  const external = useEmbeddedProvider() === false;
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const client = await calls.createClient({ name: values.name, organizationId: values.organizationId || null, ...(external ? { externalClientId: values.externalClientId } : {}) });
      form.reset(EMPTY);
      onCreated(client);
    } catch (err) {
      // What was typed stays; the server's field errors go to their fields, its message above the form.
      for (const { path, message } of serverFieldErrors(err)) {
        const field = path.replace(/^\//, '');
        if (field === 'name' || field === 'organizationId' || field === 'externalClientId') form.setError(field, { message });
      }
      setFailure(toEditorError(err).message);
    }
  });
  return (
    <section className="form" aria-labelledby="new-service-client-title">
      <h2 id="new-service-client-title">New service client</h2>
      <FormProvider {...form}>
        <form noValidate onSubmit={(event) => void submit(event)} aria-busy={busy}>
          <AlertNotice text={failure} />
          <fieldset className="form__fields" disabled={busy}>
            <TextField name="name" label="Name" hint="Who signs in with it, e.g. the state index or a laboratory's instance." required />
            <SelectField name="organizationId" label="Acts for" options={options} placeholder="The whole instance" emptyIsNull hint="The laboratory it sends for, if only one." />
            {external ? <TextField name="externalClientId" label="Client id at the identity provider" hint="The client-credentials client your identity provider issued." required /> : null}
          </fieldset>
          <SubmitActions busy={busy} label="Create client" busyLabel="Creating…" />
        </form>
      </FormProvider>
    </section>
  );
}

/** The new client's id and secret, this once. */
function CreatedClientBox({ created, onDone }: { created: CreatedClient; onDone(): void }) {
  return (
    <section className="notice access-tokens__created" aria-labelledby="created-client-title">
      <h2 id="created-client-title">Your new service client “{created.name}”</h2>
      <CopyableSecret id="created-client-id" label="Client id" value={created.clientId} />
      {created.clientSecret ? (
        <>
          <p>
            <strong>{SECRET_SHOWN_ONCE}</strong>
          </p>
          <CopyableSecret id="created-client-secret" label="Client secret" value={created.clientSecret} />
        </>
      ) : (
        <p>Your identity provider keeps this client’s secret.</p>
      )}
      <button type="button" className="button button--secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

function ClientTable({ clients, calls, onRevoked }: { clients: ServiceClient[]; calls: NetworkCalls; onRevoked(): void }) {
  const revoking = useConfirmedAction((client: ServiceClient) => calls.revokeClient(client.id), onRevoked);
  return (
    <>
      <AlertNotice text={revoking.failure} />
      <RecordTable columns={['Name', 'Client id', 'Acts for', 'Created', 'Status']} actions empty="There are no service clients yet." isEmpty={clients.length === 0}>
        {clients.map((client) => (
          <tr key={client.id}>
            <th scope="row">{client.name}</th>
            <td>
              <code>{client.clientId}</code>
            </td>
            <td>{client.organizationName ?? 'The whole instance'}</td>
            <td>{formatDateTime(client.createdAt)}</td>
            <td>{client.revokedAt ? <span title={`Revoked ${formatDateTime(client.revokedAt)}`}>Revoked</span> : 'Active'}</td>
            <td>
              {client.revokedAt ? null : (
                <button type="button" className="button button--danger" onClick={() => revoking.ask(client)}>
                  Revoke
                </button>
              )}
            </td>
          </tr>
        ))}
      </RecordTable>
      <ConfirmDialog
        open={revoking.target !== null}
        title="Revoke service client?"
        confirmLabel="Revoke"
        busy={revoking.busy}
        onConfirm={() => void revoking.confirm()}
        onCancel={revoking.cancel}
      >
        <p>Revoke “{revoking.target?.name}”? Whatever signs in with it is refused from its next call. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
