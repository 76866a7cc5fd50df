import { useState, type ReactNode } from 'react';
import { AlertNotice } from './alert-notice';
import { ReasonDialog } from './reason-dialog';
import { useConfirmedAction } from './use-confirmed-action';

/** One way to decide: its button's label (the dialog's confirm button says the same) and the dialog's title. */
interface Way {
  label: string;
  title: string;
}

/**
 * The two ways a reviewer decides a record of a list (a candidate match, a release request): `agree` as it is, the
 * dialog saying what will happen; or `decline`, the dialog waiting for a reason the other side is told.
 */
export interface TwoWayDecision<T> {
  agree: Way & { says(record: T): ReactNode; run(record: T): Promise<unknown> };
  decline: Way & { reasonLabel: string; run(record: T, reason: string): Promise<unknown> };
}

interface Deciding<T> {
  record: T;
  declining: boolean;
}

/**
 * A list's decide buttons and the one dialog they open: `children` draws the list, given the buttons of a record (the
 * list decides which records get them). A failed decision's message shows above the list; `onDecided` (read the list
 * again) runs only after a decision the server took. Reopening the dialog starts with no reason typed.
 */
export function DecisionButtons<T>({ decision, onDecided, children }: { decision: TwoWayDecision<T>; onDecided(): void; children(buttonsOf: (record: T) => ReactNode): ReactNode }) {
  const [reason, setReason] = useState('');
  const deciding = useConfirmedAction((d: Deciding<T>) => (d.declining ? decision.decline.run(d.record, reason) : decision.agree.run(d.record)), onDecided);
  const open = (record: T, declining: boolean) => {
    setReason('');
    deciding.ask({ record, declining });
  };
  const target = deciding.target;
  const way = target?.declining ? decision.decline : decision.agree;
  const buttonsOf = (record: T) => (
    <>
      <button type="button" className="button button--primary" onClick={() => open(record, false)}>
        {decision.agree.label}
      </button>{' '}
      <button type="button" className="button button--danger" onClick={() => open(record, true)}>
        {decision.decline.label}
      </button>
    </>
  );
  return (
    <>
      <AlertNotice text={deciding.failure} />
      {children(buttonsOf)}
      <ReasonDialog
        open={target !== null}
        title={way.title}
        confirmLabel={way.label}
        busy={deciding.busy}
        reasonLabel={target?.declining ? decision.decline.reasonLabel : null}
        reason={reason}
        onReason={setReason}
        onConfirm={() => void deciding.confirm()}
        onCancel={deciding.cancel}
      >
        {target && !target.declining ? <p>{decision.agree.says(target.record)}</p> : null}
      </ReasonDialog>
    </>
  );
}
