import { useState } from 'react';
import type { Profile } from '../../core/schemas/profiles';
import { toEditorError } from '../../machines/recordEditor.machine';
import { ConfirmDialog } from '../ui/confirm-dialog';
import type { ProfileCalls } from './profiles-api';

/**
 * Delete with confirmation (Profiles Delete, spec 6). The server keeps approved profiles (409,
 * "reset it to pending before deleting it"); its message shows here.
 */
export function ProfileDelete({ profile, calls, onDeleted }: { profile: Profile; calls: ProfileCalls; onDeleted(): void }) {
  const [step, setStep] = useState<'idle' | 'confirming' | 'deleting'>('idle');
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setStep('deleting');
    try {
      await calls.remove(profile.id);
      onDeleted();
    } catch (err) {
      setError(toEditorError(err).message);
      setStep('idle');
    }
  };
  return (
    <>
      <button
        type="button"
        className="button button--danger"
        onClick={() => {
          setError(null);
          setStep('confirming');
        }}
      >
        Delete
      </button>
      {error ? (
        <p className="notice notice--negative profile-actions__message" role="alert">
          {error}
        </p>
      ) : null}
      <ConfirmDialog open={step !== 'idle'} title="Delete?" confirmLabel="Delete" busy={step === 'deleting'} onConfirm={() => void remove()} onCancel={() => setStep('idle')}>
        <p>Delete profile {profile.profileId} of case {profile.caseNumber}? This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
