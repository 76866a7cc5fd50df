import { ProfileIndex } from './profile-index';
import type { MatchProfile, ProfileKind } from './types';

/**
 * Every chemistry's index. A search runs over every index of the profile's kind: kits share markers
 * by name, and markers one kit lacks are simply not compared (ARCHITECTURE.md "Matching": every
 * approved profile of a compatible chemistry).
 */
export class IndexSet {
  private readonly byChemistry = new Map<string, ProfileIndex>();
  /** Which chemistry holds each profile, so a removal needs only the id. */
  private readonly chemistryOf = new Map<string, string>();

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
    const previous = this.chemistryOf.get(profile.id);
    if (previous !== undefined && previous !== profile.chemistryId) this.remove(profile.id);
    this.index(profile.chemistryId, profile.kind).upsert(profile.id, profile.genotypes, profile.sampleType === undefined ? undefined : { organizationId: profile.organizationId, sampleType: profile.sampleType });
    this.chemistryOf.set(profile.id, profile.chemistryId);
  }

  /** Drops a profile that is no longer approved (reset, deletion); unknown ids are ignored. */
  remove(profileId: string): void {
    const chemistryId = this.chemistryOf.get(profileId);
    if (chemistryId === undefined) return;
    this.byChemistry.get(chemistryId)?.remove(profileId);
    this.chemistryOf.delete(profileId);
  }

  /** The chemistry and genotypes of a held profile (to show a candidate's markers), or undefined. */
  find(profileId: string): { index: ProfileIndex; genotypes: ReadonlyMap<string, readonly string[]> } | undefined {
    const index = this.byChemistry.get(this.chemistryOf.get(profileId) ?? '');
    const genotypes = index?.genotypesOf(profileId);
    return index && genotypes ? { index, genotypes } : undefined;
  }

  get profileCount(): number {
    return this.chemistryOf.size;
  }
}
