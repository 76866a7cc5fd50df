import { ProfileIndex, type IndexSlice, type ProfileIndexSnapshot } from './profile-index';
import { keepAdopted } from './shared-memory';
import type { MatchProfile, ProfileKind } from './types';

/**
 * Every chemistry's index. A search runs over every index of the profile's kind: kits share markers
 * by name, and markers one kit lacks are simply not compared (ARCHITECTURE.md "Matching": every
 * approved profile of a compatible chemistry). Which chemistry holds a profile is asked of the
 * indexes themselves (there are a few chemistries), so the set keeps nothing per profile.
 */
export class IndexSet {
  private readonly byChemistry = new Map<string, ProfileIndex>();

  /** Every index pinned as it is now (ProfileIndex.pin), for a search worker; `release` unpins them. */
  pin(kind?: ProfileKind): { snapshots: ProfileIndexSnapshot[]; release: () => void } {
    const pinned = this.indexes(kind);
    const snapshots = pinned.map((index) => index.pin());
    let released = false;
    return {
      snapshots,
      release: () => {
        if (released) return;
        released = true;
        for (const index of pinned) index.unpin();
      },
    };
  }

  /**
   * A read-only set over snapshots, in a search worker; with `part`, the part-th of `of` equal slices of every
   * index (ARCHITECTURE.md "Using every core": the parts of a search cover every profile once, in slot order). `viewOf`
   * makes each index's view (a worker's ViewCache gives back the one it made of the same snapshot before).
   */
  static view(snapshots: readonly ProfileIndexSnapshot[], part?: { part: number; of: number }, viewOf: (snapshot: ProfileIndexSnapshot, slice?: IndexSlice) => ProfileIndex = ProfileIndex.view): IndexSet {
    const set = new IndexSet();
    for (const snapshot of snapshots) {
      const size = snapshot.ids.count;
      const slice = part && { from: Math.floor((part.part * size) / part.of), to: Math.floor(((part.part + 1) * size) / part.of) };
      set.byChemistry.set(snapshot.chemistryId, viewOf(snapshot, slice));
    }
    keepAdopted(snapshots.map((s) => s.memoryKey));
    return set;
  }

  indexes(kind?: ProfileKind): ProfileIndex[] {
    return [...this.byChemistry.values()].filter((i) => kind === undefined || i.kind === kind);
  }

  index(chemistryId: string, kind: ProfileKind): ProfileIndex {
    let index = this.byChemistry.get(chemistryId);
    if (!index) {
      index = new ProfileIndex(chemistryId, kind);
      this.byChemistry.set(chemistryId, index);
    }
    return index;
  }

  /** Adds or replaces an approved profile (a re-approval after a reset may change its chemistry). */
  upsert(profile: MatchProfile): void {
    for (const [chemistryId, index] of this.byChemistry) if (chemistryId !== profile.chemistryId) index.remove(profile.id);
    this.index(profile.chemistryId, profile.kind).upsert(profile.id, profile.genotypes, profile.sampleType === undefined ? undefined : { organizationId: profile.organizationId, sampleType: profile.sampleType });
  }

  /** Drops a profile that is no longer approved (reset, deletion); unknown ids are ignored. */
  remove(profileId: string): void {
    for (const index of this.byChemistry.values()) index.remove(profileId);
  }

  /** Whether a profile is held, in any chemistry's index (nothing decoded: find() decodes its genotypes). */
  has(profileId: string): boolean {
    for (const index of this.byChemistry.values()) if (index.has(profileId)) return true;
    return false;
  }

  /** The chemistry and genotypes of a held profile (to show a candidate's markers), or undefined. */
  find(profileId: string): { index: ProfileIndex; genotypes: ReadonlyMap<string, readonly string[]> } | undefined {
    for (const index of this.byChemistry.values()) {
      const genotypes = index.genotypesOf(profileId);
      if (genotypes) return { index, genotypes };
    }
    return undefined;
  }

  get profileCount(): number {
    let n = 0;
    for (const index of this.byChemistry.values()) n += index.profileCount;
    return n;
  }

  /** Makes room for `n` profiles of a chemistry at once (a start-up load that knows its counts: no spare room). */
  reserve(chemistryId: string, kind: ProfileKind, n: number): void {
    this.index(chemistryId, kind).reserve(n);
  }

  /** Gives back every index's spare room but `spare` × its size (the end of a start-up load that did not reserve). */
  trim(spare = 0): void {
    for (const index of this.byChemistry.values()) index.trim(spare);
  }

  /** Bytes of typed arrays every index holds (spare room included); the process holds a little more (see bench/index-memory.ts). */
  indexBytes(): number {
    let bytes = 0;
    for (const index of this.byChemistry.values()) bytes += index.indexBytes();
    return bytes;
  }
}
