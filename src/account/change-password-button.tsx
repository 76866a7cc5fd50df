import { Suspense, useState } from 'react';
import { lazyPage } from '../app/lazy-page';
import { useEmbeddedProvider } from './use-embedded-provider';

// The form and dialog code (react-hook-form, Radix) is fetched when the dialog first opens, not with every page.
const ChangePasswordDialog = lazyPage(() => import('./change-password-dialog'), 'ChangePasswordDialog');

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
      {open ? (
        <Suspense fallback={null}>
          <ChangePasswordDialog open onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
