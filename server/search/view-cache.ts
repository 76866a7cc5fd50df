import { ProfileIndex, type IndexSlice, type ProfileIndexSnapshot } from '../matching/profile-index';

/**
 * A search worker's views of the snapshots it was sent, kept while the index is unchanged (issue 29: every task made its
 * views again — a Map per column's dictionary, the ids, the groups — 0.15–0.25 ms a slice of a split search). A
 * snapshot's memory and version name its bytes exactly: every edit counts a version, and every move of the arrays (a
 * new capacity, a copy before an edit under a pin) moves the columns to a fresh memory, whose name is new.
 */
export class ViewCache {
  /** Per memory, chemistry and slice, the latest view made (an older version's is replaced, not kept). */
  private readonly views = new Map<string, { version: number; index: ProfileIndex }>();

  /** The view of `snapshot` (or of its slots [from, to)): the one made before when it is the same snapshot. */
  readonly view = (snapshot: ProfileIndexSnapshot, slice?: IndexSlice): ProfileIndex => {
    const place = `${snapshot.memoryKey}\u0000${snapshot.chemistryId}\u0000${slice ? `${slice.from}-${slice.to}` : 'whole'}`;
    const held = this.views.get(place);
    if (held?.version === snapshot.version) return held.index;
    const index = ProfileIndex.view(snapshot, slice);
    this.views.set(place, { version: snapshot.version, index });
    return index;
  };

  /** Forgets the views of every memory but those named (the current task's), so a memory the index left is freed. */
  keep(memoryKeys: readonly string[]): void {
    for (const place of this.views.keys()) if (!memoryKeys.includes(place.slice(0, place.indexOf('\u0000')))) this.views.delete(place);
  }
}
