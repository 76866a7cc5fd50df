import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

interface AccountMenuProps {
  /** The user's name, shown on the button that opens the menu on narrow screens. */
  label: string;
  /** Closes the menu when it changes (the page changed). */
  closeKey: string;
  children: ReactNode;
}

/**
 * The header's user area (role, name, Access tokens, Change password, Sign out). From 1024 px it sits
 * in the header; below, the header has no room for it (issue 18: at 600 px it pushed Change password
 * and Sign out off the screen), so it folds behind an "Account" button and opens as a panel. Not a
 * Radix menu: its items stay mounted while it is closed (CSS hides them), so the Change password
 * dialog an item opened keeps its state.
 */
export function AccountMenu({ label, closeKey, children }: AccountMenuProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => setOpen(false), [closeKey]);
  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      // A dialog an item opened is portalled outside the menu: using it must not close the menu under it.
      const target = e.target as Element | null;
      if (target && !root.current?.contains(target) && !target.closest?.('[role="dialog"], [role="alertdialog"]')) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('pointerdown', outside);
    // Capture, ahead of the dialog's own Escape handler: an Escape that closes a dialog leaves the menu open.
    document.addEventListener('keydown', escape, true);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape, true);
    };
  }, [open]);
  return (
    <div ref={root} className="account-menu" data-open={open ? 'true' : 'false'}>
      <button
        ref={toggle}
        type="button"
        className="account-menu__toggle button button--secondary"
        aria-expanded={open}
        aria-controls={id}
        title={label}
        onClick={() => setOpen((o) => !o)}
      >
        Account
      </button>
      <div id={id} className="app-header__user" role="group" aria-label="Account">
        {children}
      </div>
    </div>
  );
}
