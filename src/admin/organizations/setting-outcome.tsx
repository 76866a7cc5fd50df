import type { SettingOutcome } from './use-organization-setting';

/** What became of an organization setting's last change: saved (a status) or not (an alert). */
export function SettingOutcomeNotice({ outcome }: { outcome: SettingOutcome }) {
  if (outcome?.kind === 'saved') return <p role="status">{outcome.message}</p>;
  if (outcome?.kind === 'failed') {
    return (
      <p role="alert" className="notice notice--negative">
        {outcome.message}
      </p>
    );
  }
  return null;
}
