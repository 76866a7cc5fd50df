import { useId, type ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog';

/**
 * A decision's confirmation: with `reasonLabel`, a required reason typed in it (the button waits for one); without,
 * the `children` saying what will happen. DecisionButtons (release requests, candidate matches) opens it.
 */
export function ReasonDialog(props: {
  open: boolean;
  title: string;
  confirmLabel: string;
  busy: boolean;
  reasonLabel: string | null;
  reason: string;
  onReason(reason: string): void;
  onConfirm(): void;
  onCancel(): void;
  children?: ReactNode;
}) {
  const reasonId = useId();
  const asking = props.reasonLabel !== null;
  return (
    <ConfirmDialog open={props.open} title={props.title} confirmLabel={props.confirmLabel} busy={props.busy} confirmDisabled={asking && props.reason.trim() === ''} onConfirm={props.onConfirm} onCancel={props.onCancel}>
      {asking ? (
        <div className="field">
          <label className="field__label" htmlFor={reasonId}>
            {props.reasonLabel}
          </label>
          <textarea id={reasonId} className="input input--multiline" rows={3} value={props.reason} disabled={props.busy} onChange={(e) => props.onReason(e.target.value)} />
        </div>
      ) : (
        props.children
      )}
    </ConfirmDialog>
  );
}
