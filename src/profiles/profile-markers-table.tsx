import type { MarkerValue } from '../../core/schemas/profiles';
import { formatAlleles } from './allele-text';

/** A profile's marker values as stored: the chemistry's order, markers outside the kit last (spec 2.8 markers view). */
export function ProfileMarkersTable({ profileId, markerValues }: { profileId: string; markerValues: readonly MarkerValue[] }) {
  if (markerValues.length === 0) return <p className="profile-markers__empty">Profile {profileId} has no marker values yet.</p>;
  return (
    <table className="profile-markers">
      <caption>Markers of {profileId}</caption>
      <thead>
        <tr>
          <th scope="col">Marker</th>
          <th scope="col">Alleles</th>
        </tr>
      </thead>
      <tbody>
        {markerValues.map((m) => (
          <tr key={m.markerId}>
            <th scope="row">{m.marker}</th>
            <td>{formatAlleles(m.alleles)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
