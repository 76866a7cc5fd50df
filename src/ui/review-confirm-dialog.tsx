import type { ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog';

/** The part of a review machine's snapshot (machines/reviewDecision) the confirmation follows. */
interface ReviewConfirmSnapshot {
  matches(state: 'confirming' | 'submitting'): boolean;
  hasTag(tag: 'busy'): boolean;
}

interface ReviewConfirmDialogProps {
  snapshot: ReviewConfirmSnapshot;
  send(event: { type: 'decision.confirm' } | { type: 'decision.cancel' }): void;
  title: string;
  confirmLabel: string;
  children: ReactNode;
}

/** A review decision's confirmation, the same for profiles, hits and families: open while confirming or submitting. */
export function ReviewConfirmDialog({ snapshot, send, title, confirmLabel, children }: ReviewConfirmDialogProps) {
  return (
    <ConfirmDialog
      open={snapshot.matches('confirming') || snapshot.matches('submitting')}
      title={title}
      confirmLabel={confirmLabel}
      busy={snapshot.hasTag('busy')}
      onConfirm={() => send({ type: 'decision.confirm' })}
      onCancel={() => send({ type: 'decision.cancel' })}
    >
      {children}
    </ConfirmDialog>
  );
}
