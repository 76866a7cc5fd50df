import type { Profile } from '../../core/schemas/profiles';
import { DownloadButtons } from '../ui/download-buttons';
import type { DownloadFormat, ProfileCalls } from './profiles-api';

const FORMATS: readonly { key: DownloadFormat; label: string; extension: string }[] = [
  { key: 'cmf', label: 'Download CMF XML', extension: 'xml' },
  { key: 'csv', label: 'Download CSV', extension: 'csv' },
];

/** Download (spec 2.8): the profile as CODIS CMF XML or as CSV, saved under the name the server gives. */
export function ProfileDownloads({ profile, calls }: { profile: Profile; calls: ProfileCalls }) {
  const extension = (format: DownloadFormat) => FORMATS.find((f) => f.key === format)!.extension;
  return <DownloadButtons choices={FORMATS} download={(format) => calls.download(profile.id, format, `${profile.profileId}.${extension(format)}`)} />;
}
