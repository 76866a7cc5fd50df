import type { Genotype } from '../genetics/types';
import { searchIdentity } from './identity-search';
import type { IndexSet } from './index-set';
import type { MatchRule, RuleMatch } from './rule-match';
import { searchEachRule } from './rule-search';
import type { IdentityCandidate, IdentityOptions, MatchProfile, ProfileKind } from './types';

/** Progress of a long search: steps done out of total (one search rule is a step). */
export type SearchProgress = (done: number, total: number) => void;

/**
 * The in-memory matcher the server holds (ARCHITECTURE.md "Matching"): the index set built at start-up,
 * kept current on approve and reset, and searched step by step so a long run yields to other requests
 * between steps and reports its progress.
 */
export class MatchingService {
  constructor(public indexes: IndexSet) {}

  /** Swaps in an index set rebuilt from the database (after this process may have missed changes). */
  replace(indexes: IndexSet): void {
    this.indexes = indexes;
  }

  /** A profile was approved: it joins (or replaces itself in) its chemistry's index. */
  approved(profile: MatchProfile): void {
    this.indexes.upsert(profile);
  }

  /** A profile is no longer approved (reset, deleted): it leaves the index. */
  removed(profileId: string): void {
    this.indexes.remove(profileId);
  }

  /**
   * Every match of each rule for `profile` (never itself), rule by rule (ARCHITECTURE.md "Search policy"), on this
   * thread: the server runs it on its search workers (server/search), this is the same search where none run.
   */
  async searchRules(profile: MatchProfile, rules: readonly MatchRule[], { onProgress }: { onProgress?: SearchProgress } = {}): Promise<RuleMatch[]> {
    onProgress?.(0, rules.length);
    return searchEachRule(profile, rules, this.indexes, onProgress);
  }

  /** CODIS identity search over every index of a kind (keyboard search, and identity searches the lead runs). */
  identity(kind: ProfileKind, query: ReadonlyMap<string, Genotype>, options: IdentityOptions, excludeId?: string): IdentityCandidate[] {
    return this.indexes.indexes(kind).flatMap((index) => searchIdentity(index, query, options, excludeId));
  }
}
