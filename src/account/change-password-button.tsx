import { useState } from 'react';
import { ChangePasswordDialog } from './change-password-dialog';
import { useEmbeddedProvider } from './use-embedded-provider';

/** "Change password" for the header's user area; shown only when Locus's own provider keeps passwords. */
export function ChangePasswordButton({ className = 'button button--secondary' }: { className?: string }) {
  const embedded = useEmbeddedProvider();
  const [open, setOpen] = useState(false);
  if (!embedded) return null;
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        Change password
      </button>
      <ChangePasswordDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}
