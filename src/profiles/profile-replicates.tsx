import type { Replicate } from '../../core/schemas/replicates';

/** A size with its source: the kit's bin is marked, since the file did not give it. */
function sizeText(peak: Replicate['markers'][number]['peaks'][number]): string {
  if (peak.size === null) return '—';
  return peak.sizeSource === 'kit' ? `${peak.size} (kit)` : String(peak.size);
}

/**
 * The peak heights of a profile, one table per replicate (issue 31): marker, allele, height in RFU and size in bp.
 * A height under the kit's analytical threshold is kept and flagged; CMF exports leave the heights out, and say so.
 */
export function ProfileReplicates({ profileId, replicates }: { profileId: string; replicates: readonly Replicate[] }) {
  if (replicates.length === 0) return null;
  return (
    <section className="profile-replicates" aria-label={`Peak heights of ${profileId}`}>
      <h2>Peak heights</h2>
      <p className="profile-replicates__note">The CMF download leaves the peak heights out (CODIS CMF 3.2 has no place for them); the CSV download keeps them.</p>
      {replicates.map((r, index) => (
        <table key={index} className="profile-markers profile-replicates__table">
          <caption>
            Replicate {index + 1}
            {r.name ? `: ${r.name}` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Marker</th>
              <th scope="col">Allele</th>
              <th scope="col">Height (RFU)</th>
              <th scope="col">Size (bp)</th>
            </tr>
          </thead>
          <tbody>
            {r.markers.flatMap((m) =>
              m.peaks.map((p, j) => (
                <tr key={`${m.markerId} ${j}`} className={p.belowThreshold ? 'profile-replicates__below' : undefined}>
                  {j === 0 ? (
                    <th scope="rowgroup" rowSpan={m.peaks.length} title={m.note}>
                      {m.marker}
                    </th>
                  ) : null}
                  <td>{p.allele}</td>
                  <td>
                    {p.height ?? '—'}
                    {p.belowThreshold ? ' (under the analytical threshold)' : ''}
                  </td>
                  <td>{sizeText(p)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      ))}
    </section>
  );
}
