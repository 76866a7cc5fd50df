import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  /** Confirm waits for something the dialog asks (a reason). */
  confirmDisabled?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** Asks before something that cannot be undone (deleting a record). Escape or Cancel keeps everything. */
export function ConfirmDialog({ open, title, children, confirmLabel, busy = false, confirmDisabled = false, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (!next && !busy ? onCancel() : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" role="alertdialog">
          <Dialog.Title className="dialog__title">{title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="dialog__body">{children}</div>
          </Dialog.Description>
          <div className="dialog__actions">
            <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>
              Cancel
            </button>
            <button type="button" className="button button--danger" onClick={onConfirm} disabled={busy || confirmDisabled} aria-busy={busy}>
              {confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
