import { useState } from 'react';
import type { Profile } from '../../core/schemas/profiles';
import { useShellSession } from '../app/shell-session';
import { DownloadButtons } from '../ui/download-buttons';
import { CmfDownloadDialog } from './cmf-download-dialog';
import type { ProfileCalls } from './profiles-api';

const CSV = [{ key: 'csv', label: 'Download CSV' }] as const;

/**
 * Download (spec 2.8): the profile as CODIS CMF XML, whose specimen category, specimen id and submitter a dialog
 * offers first (issue 30), or as CSV; saved under the name the server gives.
 */
export function ProfileDownloads({ profile, calls }: { profile: Profile; calls: ProfileCalls }) {
  const { me } = useShellSession();
  const [choosing, setChoosing] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <>
      <div className="profile-actions__group">
        <button type="button" className="button button--secondary" aria-haspopup="dialog" onClick={() => setChoosing(true)}>
          Download CMF XML…
        </button>
        <span className="field__hint" role="status">
          {saved ? `Saved ${saved}` : ''}
        </span>
      </div>
      <DownloadButtons choices={CSV} download={() => calls.download(profile.id, 'csv', `${profile.profileId}.csv`)} />
      <CmfDownloadDialog
        open={choosing}
        profile={profile}
        email={me.email}
        download={(choices) => calls.download(profile.id, 'cmf', `${profile.profileId}.xml`, choices)}
        onSaved={(name) => {
          setChoosing(false);
          setSaved(name);
        }}
        onCancel={() => setChoosing(false)}
      />
    </>
  );
}
