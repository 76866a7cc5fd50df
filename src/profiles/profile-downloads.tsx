import { useState } from 'react';
import type { Profile } from '../../core/schemas/profiles';
import type { DownloadFormat, ProfileCalls } from './profiles-api';

const FORMATS: readonly { format: DownloadFormat; label: string; extension: string }[] = [
  { format: 'cmf', label: 'Download CMF XML', extension: 'xml' },
  { format: 'csv', label: 'Download CSV', extension: 'csv' },
];

/** Download (spec 2.8): the profile as CODIS CMF XML or as CSV, saved under the name the server gives. */
export function ProfileDownloads({ profile, calls }: { profile: Profile; calls: ProfileCalls }) {
  const [busy, setBusy] = useState<DownloadFormat | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const download = async (format: DownloadFormat, extension: string) => {
    setBusy(format);
    setSaved(null);
    try {
      setSaved(await calls.download(profile.id, format, `${profile.profileId}.${extension}`));
    } catch {
      // The API client already told the user (spec 8.1).
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="profile-actions__group">
      {FORMATS.map(({ format, label, extension }) => (
        <button key={format} type="button" className="button button--secondary" disabled={busy !== null} aria-busy={busy === format} onClick={() => void download(format, extension)}>
          {label}
        </button>
      ))}
      <span className="field__hint" role="status">
        {saved ? `Saved ${saved}` : ''}
      </span>
    </div>
  );
}
