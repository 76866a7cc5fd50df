import type { ProfileImportRow } from '../../core/schemas/profile-imports';
import { groupOf, joinable, type ProfileImportEvent, type ReplicateGroups } from '../../machines/profileImport.machine';

interface ReplicateJoinProps {
  row: ProfileImportRow;
  /** The rows of the page, to join with. */
  rows: readonly ProfileImportRow[];
  groups: ReplicateGroups;
  excluded: ReadonlySet<number>;
  disabled: boolean;
  send(event: ProfileImportEvent): void;
}

/**
 * Issue 31: a sample read with heights joins another sample's profile as its replicate (the runs of one
 * extract under different names), or stays a profile of its own. A group's first sample in the file keeps
 * its name and takes the others' runs, as the server adds it.
 */
export function ReplicateJoin({ row, rows, groups, excluded, disabled, send }: ReplicateJoinProps) {
  if (!joinable(row) || excluded.has(row.index)) return null;
  const group = groupOf(groups, row.index);
  const lead = group?.[0];
  const name = (index: number) => rows.find((r) => r.index === index)?.profileId ?? `profile ${index + 1}`;
  const others = rows.filter((r) => r.index !== row.index && joinable(r) && !excluded.has(r.index));
  if (others.length === 0) return null;
  return (
    <p className="profile-import__join">
      <label>
        Replicate of{' '}
        <select
          aria-label={`${row.profileId} is a replicate of`}
          value={lead !== undefined && lead !== row.index ? String(lead) : ''}
          disabled={disabled}
          onChange={(e) => send({ type: 'replicate.join', index: row.index, with: e.target.value === '' ? null : Number(e.target.value) })}
        >
          <option value="">none: a profile of its own</option>
          {others.map((r) => (
            <option key={r.index} value={r.index}>
              {r.profileId}
            </option>
          ))}
        </select>
      </label>
      {group && lead === row.index ? ` Added as one profile named ${row.profileId}, with the runs of ${group.slice(1).map(name).join(', ')} as its replicates.` : null}
    </p>
  );
}
