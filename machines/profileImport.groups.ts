import type { ProfileImportRow } from '../core/schemas/profile-imports';

// Issue 31: the preview joins differently named samples (the runs of one extract) into one profile as its
// replicates. A group is a list of row indices in file order; its first row keeps its name and takes the
// others' runs (server/http/profile-imports/replicate-groups.ts checks and applies the same rule).

/** Groups of at least two rows, each in file order. */
export type ReplicateGroups = readonly (readonly number[])[];

const tidy = (groups: number[][]): number[][] => groups.filter((g) => g.length >= 2).map((g) => [...g].sort((a, b) => a - b));

/** The groups without `index` (kept apart again); a group left with one row is no group. */
export const leaveGroup = (groups: ReplicateGroups, index: number): number[][] => tidy(groups.map((g) => g.filter((i) => i !== index)));

/** The groups with `index` joined to `target`'s group (or a new one of the two); null: `index` kept apart. */
export function joinGroup(groups: ReplicateGroups, index: number, target: number | null): number[][] {
  const rest = leaveGroup(groups, index);
  if (target === null || target === index) return rest;
  const at = rest.findIndex((g) => g.includes(target));
  if (at < 0) return tidy([...rest, [target, index]]);
  return tidy(rest.map((g, i) => (i === at ? [...g, index] : g)));
}

/** The group holding `index`, if any. */
export const groupOf = (groups: ReplicateGroups, index: number): readonly number[] | undefined => groups.find((g) => g.includes(index));

/** Rows added as another row's replicates, not as profiles of their own. */
export const joinedCount = (groups: ReplicateGroups): number => groups.reduce((n, g) => n + g.length - 1, 0);

/** A row that may be joined with others: read with heights, no parser errors, not added yet. */
export const joinable = (row: ProfileImportRow): boolean => row.errors.length === 0 && !row.added && (row.replicates?.length ?? 0) > 0;
