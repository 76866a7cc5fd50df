import { useState } from 'react';
import { PASSWORD_MIN_LENGTH, SetPasswordInput, type PasswordLink, type UserRecord } from '../../../core/schemas/users';
import { PasswordDialog, type PasswordDialogField } from '../../account/password-dialog';
import type { UsersApi } from './users-api';

const FIELDS: readonly PasswordDialogField<SetPasswordInput>[] = [{ name: 'password', label: 'New password', autoComplete: 'new-password' }];

const formatExpiry = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * An administrator's password actions for an existing user (embedded provider only): set a
 * password now, or create a one-time link with which the user sets it themself.
 */
export function PasswordActions({ user, calls }: { user: UserRecord; calls: Pick<UsersApi, 'setPassword' | 'passwordLink'> }) {
  const [dialogOpen, setDialogOpen] = useState(false);
  const [link, setLink] = useState<PasswordLink | null>(null);
  const [creating, setCreating] = useState(false);
  const [copied, setCopied] = useState(false);
  const [hasPassword, setHasPassword] = useState(user.hasPassword);

  const createLink = async () => {
    setCreating(true);
    setCopied(false);
    try {
      setLink(await calls.passwordLink(user.id));
    } catch {
      // The API client has already told the user what failed (spec 8.1).
    } finally {
      setCreating(false);
    }
  };
  // The clipboard exists only in secure contexts; elsewhere the link is selected on focus for copying by hand.
  const canCopy = typeof navigator !== 'undefined' && Boolean(navigator.clipboard);
  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <section className="form user-passwords" aria-labelledby="user-passwords-title">
      <h2 id="user-passwords-title">Password</h2>
      <p>{hasPassword ? 'This user has a password.' : 'This user has no password yet and cannot sign in until one is set.'}</p>
      <div className="user-passwords__actions">
        <button type="button" className="button button--secondary" onClick={() => setDialogOpen(true)}>
          Set password
        </button>
        <button type="button" className="button button--secondary" onClick={createLink} disabled={creating} aria-busy={creating}>
          {creating ? 'Creating link…' : 'Create set-password link'}
        </button>
      </div>
      {link ? (
        <div className="user-passwords__link">
          <label htmlFor="set-password-link" className="field__label">
            Set-password link
          </label>
          <div className="user-passwords__link-row">
            <input id="set-password-link" className="input" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
            {canCopy ? (
              <button type="button" className="button button--secondary" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </button>
            ) : null}
          </div>
          <p className="field__hint">
            Send it to {user.email} only: it works once, until {formatExpiry(link.expiresAt)}. A newer link replaces this one.
          </p>
        </div>
      ) : null}
      <PasswordDialog<SetPasswordInput>
        open={dialogOpen}
        title="Set password"
        description={
          <p>
            The new password for {user.email}, at least {PASSWORD_MIN_LENGTH} characters. Tell it to them in person or by phone, not by e-mail.
          </p>
        }
        schema={SetPasswordInput}
        fields={FIELDS}
        submitLabel="Set password"
        doneMessage={`The password of ${user.email} is set.`}
        onSubmit={async (values) => {
          await calls.setPassword(user.id, values.password);
          setHasPassword(true);
        }}
        onClose={() => setDialogOpen(false)}
      />
    </section>
  );
}
