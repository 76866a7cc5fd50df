import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { isAllowedHref, LINK_TARGET_MESSAGE } from '../../../core/rich-text';

interface LinkDialogProps {
  open: boolean;
  /** The link under the cursor, when there is one. */
  initialHref: string;
  onSubmit(href: string): void;
  onCancel(): void;
}

/** Asks for a link target; only http, https and mailto are accepted (the allow-list of core/rich-text.ts). */
export function LinkDialog({ open, initialHref, onSubmit, onCancel }: LinkDialogProps) {
  const id = useId();
  const [href, setHref] = useState(initialHref);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (open) {
      setHref(initialHref);
      setError(null);
    }
  }, [open, initialHref]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation(); // the dialog sits inside the text form; do not submit that
    const target = href.trim();
    if (!isAllowedHref(target)) setError(LINK_TARGET_MESSAGE);
    else onSubmit(target);
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onCancel())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        {/* The editor puts focus back into the text itself, where the link now is. */}
        <Dialog.Content className="dialog" aria-describedby={undefined} onCloseAutoFocus={(event) => event.preventDefault()}>
          <Dialog.Title className="dialog__title">Link</Dialog.Title>
          <form onSubmit={submit} noValidate>
            <div className={`field${error ? ' field--invalid' : ''}`}>
              <label className="field__label" htmlFor={id}>
                Link address
              </label>
              <input
                id={id}
                className="input"
                type="url"
                value={href}
                placeholder="https://"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(e) => setHref(e.target.value)}
              />
              {error ? (
                <p className="field__error" id={`${id}-error`}>
                  {error}
                </p>
              ) : null}
            </div>
            <div className="dialog__actions">
              <button type="button" className="button button--secondary" onClick={onCancel}>
                Cancel
              </button>
              <button type="submit" className="button button--primary">
                Apply link
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
