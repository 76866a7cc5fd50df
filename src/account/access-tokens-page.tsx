import { useMemo, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ACCESS_TOKEN_MAX_DAYS, CreateAccessTokenBody, type AccessToken } from '../../core/schemas/access-tokens';
import { toEditorError } from '../../machines/recordEditor.machine';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { useDocumentTitle } from '../app/use-document-title';
import { formatDateTime } from '../cases/format';
import { LoadState } from '../profiles/load-state';
import { useLoaded } from '../profiles/use-loaded';
import { AlertNotice } from '../ui/alert-notice';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { CopyableSecret } from '../ui/copyable-secret';
import { serverFieldErrors } from '../ui/form/server-field-errors';
import { TextField } from '../ui/form/text-field';
import { SubmitActions } from '../ui/form/submit-actions';
import { RecordTable } from '../ui/record-table';
import { useConfirmedAction } from '../ui/use-confirmed-action';
import { accessTokensApi, curlExample, newestFirst, tokenStatus, type AccessTokenCalls, type CreatedToken, type NewAccessToken } from './access-tokens-api';
import './account.css';

export const DEFAULT_EXPIRES_IN_DAYS = 90;
export const SHOWN_ONCE = 'Copy this token now: it will not be shown again. It acts with your permissions.';

const EMPTY_FORM: NewAccessToken = { name: '', expiresInDays: DEFAULT_EXPIRES_IN_DAYS };

/**
 * AccessTokens (issue 18): the signed-in user's personal access tokens for scripts and a LIMS. A new
 * token is shown once, here, with a curl line for the organization chosen in the app; the list
 * shows only each token's prefix. Revoking asks first and then reads the list again.
 */
export function AccessTokensPage({ orgId }: { orgId: string }) {
  const api = useApi();
  const calls = useMemo(() => accessTokensApi(api), [api]);
  const loaded = useLoaded('access-tokens', () => calls.list());
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const title = routes.AccessTokens.title;
  useDocumentTitle(title);

  return (
    <section className="page access-tokens" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{title}</h1>
      </div>
      <p>
        A personal access token lets a script or your laboratory's LIMS call the Locus API without a browser. It acts as you, with your permissions and
        organizations as they are at each call, until it expires or you revoke it.
      </p>
      <NewTokenForm
        calls={calls}
        onCreated={(token) => {
          setCreated(token);
          loaded.reload();
        }}
      />
      {created ? <CreatedTokenBox created={created} orgId={orgId} onDone={() => setCreated(null)} /> : null}
      <section aria-labelledby="access-tokens-list-title">
        <h2 id="access-tokens-list-title">Your tokens</h2>
        <LoadState loaded={loaded} missing="Your access tokens could not be found.">
          {(tokens) => <TokenTable tokens={newestFirst(tokens)} calls={calls} onRevoked={loaded.reload} />}
        </LoadState>
      </section>
    </section>
  );
}

function NewTokenForm({ calls, onCreated }: { calls: AccessTokenCalls; onCreated(token: CreatedToken): void }) {
  const form = useForm<NewAccessToken>({ resolver: zodResolver(CreateAccessTokenBody), defaultValues: EMPTY_FORM });
  const [failure, setFailure] = useState<string | null>(null);
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const token = await calls.create(values);
      form.reset(EMPTY_FORM);
      onCreated(token);
    } catch (err) {
      // What was typed stays; the server's field errors go to their fields, its message above the form.
      for (const { path, message } of serverFieldErrors(err)) {
        const field = path.replace(/^\//, '');
        if (field === 'name' || field === 'expiresInDays') form.setError(field, { message });
      }
      setFailure(toEditorError(err).message);
    }
  });

  return (
    <section className="form" aria-labelledby="new-access-token-title">
      <h2 id="new-access-token-title">New access token</h2>
      <FormProvider {...form}>
        <form noValidate onSubmit={(event) => void submit(event)} aria-busy={busy}>
          <AlertNotice text={failure} />
          <fieldset className="form__fields" disabled={busy}>
            <TextField name="name" label="Name" hint="What uses the token, e.g. the LIMS or a nightly script." required />
            <TextField name="expiresInDays" label="Expires in (days)" type="number" hint={`From 1 to ${ACCESS_TOKEN_MAX_DAYS} days.`} required />
          </fieldset>
          <SubmitActions busy={busy} label="Create token" busyLabel="Creating…" />
        </form>
      </FormProvider>
    </section>
  );
}

/** The new token, this once: read-only, with Copy and a curl line for the organization chosen in the app. */
function CreatedTokenBox({ created, orgId, onDone }: { created: CreatedToken; orgId: string; onDone(): void }) {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  return (
    <section className="notice access-tokens__created" aria-labelledby="created-token-title">
      <h2 id="created-token-title">Your new token “{created.name}”</h2>
      <p>
        <strong>{SHOWN_ONCE}</strong>
      </p>
      <CopyableSecret id="created-token" label="Token" value={created.token} />
      <p>It expires {formatDateTime(created.expiresAt)}. For example, to list the organization's hits:</p>
      <pre className="access-tokens__example">
        <code>{curlExample(created.token, origin, orgId)}</code>
      </pre>
      <button type="button" className="button button--secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

function TokenTable({ tokens, calls, onRevoked }: { tokens: AccessToken[]; calls: AccessTokenCalls; onRevoked(): void }) {
  const revoking = useConfirmedAction((token: AccessToken) => calls.revoke(token.id), onRevoked);
  const confirming = revoking.target;
  const now = new Date();

  return (
    <>
      <AlertNotice text={revoking.failure} />
      <RecordTable columns={['Name', 'Token', 'Created', 'Expires', 'Last used', 'Status']} actions empty="You have no access tokens yet." isEmpty={tokens.length === 0}>
        {tokens.map((token) => {
          const status = tokenStatus(token, now);
          return (
            <tr key={token.id}>
              <th scope="row">{token.name}</th>
              <td>
                <code>{token.prefix}…</code>
              </td>
              <td>{formatDateTime(token.createdAt)}</td>
              <td>{formatDateTime(token.expiresAt)}</td>
              <td>{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Never'}</td>
              <td>{status === 'Revoked' && token.revokedAt ? <span title={`Revoked ${formatDateTime(token.revokedAt)}`}>Revoked</span> : status}</td>
              <td>
                {status === 'Active' ? (
                  <button type="button" className="button button--danger" onClick={() => revoking.ask(token)}>
                    Revoke
                  </button>
                ) : null}
              </td>
            </tr>
          );
        })}
      </RecordTable>
      <ConfirmDialog
        open={confirming !== null}
        title="Revoke access token?"
        confirmLabel="Revoke"
        busy={revoking.busy}
        onConfirm={() => void revoking.confirm()}
        onCancel={revoking.cancel}
      >
        <p>
          Revoke “{confirming?.name}” ({confirming?.prefix}…)? Scripts that use it stop working at once. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
