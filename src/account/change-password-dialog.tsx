import { z } from 'zod';
import { ChangePasswordInput, PASSWORD_MIN_LENGTH } from '../../core/schemas/users';
import { useApi } from '../app/api-provider';
import { unwrap } from '../api/unwrap';
import { PasswordDialog, type PasswordDialogField } from './password-dialog';

export const PASSWORDS_DIFFER = 'The two passwords do not match.';

/** The server's schema plus the form-only check that the new password was typed the same twice. */
const ChangePasswordForm = ChangePasswordInput.extend({ repeatPassword: z.string() }).refine((v) => v.newPassword === v.repeatPassword, {
  path: ['repeatPassword'],
  message: PASSWORDS_DIFFER,
});
type ChangePasswordForm = z.infer<typeof ChangePasswordForm>;

const FIELDS: readonly PasswordDialogField<ChangePasswordForm>[] = [
  { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New password', autoComplete: 'new-password' },
  { name: 'repeatPassword', label: 'Repeat the new password', autoComplete: 'new-password' },
];

/** The signed-in user changes their own password (embedded identity provider: PUT /api/me/password). */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const api = useApi();
  return (
    <PasswordDialog<ChangePasswordForm>
      open={open}
      title="Change password"
      description={<p>Choose a password of at least {PASSWORD_MIN_LENGTH} characters; a few unrelated words make a good one.</p>}
      schema={ChangePasswordForm}
      fields={FIELDS}
      submitLabel="Change password"
      doneMessage="Your password is changed. Use the new one the next time you sign in."
      onSubmit={async ({ currentPassword, newPassword }) => {
        await unwrap(api.PUT('/api/me/password', { body: { currentPassword, newPassword } }));
      }}
      onClose={onClose}
    />
  );
}
