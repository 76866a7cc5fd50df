import type { ProfileCalls } from './profiles-api';
import { useLoaded } from './use-loaded';

/**
 * Whether the profile may be uploaded to the upper level under the level's rules (issue 32), and every reason it
 * may not. Shown only when this instance names an upper instance (its network settings): without one nothing is uploaded.
 */
export function ProfileUploadEligibilityNote({ profileId, version, calls }: { profileId: string; version: number; calls: Pick<ProfileCalls, 'uploadEligibility'> }) {
  const loaded = useLoaded(`${profileId}/${version}`, () => calls.uploadEligibility(profileId));
  if (loaded.status === 'loading' || (loaded.status === 'loaded' && !loaded.value.upperInstance)) return null;
  return (
    <section className="profile-upload-eligibility" aria-labelledby={`upload-eligibility-${profileId}`}>
      <h2 id={`upload-eligibility-${profileId}`}>Upload eligibility</h2>
      {loaded.status === 'failed' ? (
        <p role="alert">Whether it may be uploaded could not be read: {loaded.error.message}</p>
      ) : loaded.value.eligible ? (
        <p>Upload to the upper level: eligible ({loaded.value.index} index).</p>
      ) : (
        <>
          <p>Not eligible for upload to the upper level:</p>
          <ul>
            {loaded.value.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
