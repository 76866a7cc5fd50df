import type { Genotype } from '../genetics/types';
import { searchIdentity } from './identity-search';
import type { IndexSet } from './index-set';
import { IdentityScans, searchRule, type MatchRule, type RuleMatch } from './rule-search';
import type { IdentityCandidate, IdentityOptions, MatchProfile, ProfileKind } from './types';

/** Progress of a long search: steps done out of total (one search rule is a step). */
export type SearchProgress = (done: number, total: number) => void;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

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

  /** Every match of each rule for `profile` (never itself), rule by rule, yielding between rules (ARCHITECTURE.md "Search policy"). */
  async searchRules(profile: MatchProfile, rules: readonly MatchRule[], { onProgress }: { onProgress?: SearchProgress } = {}): Promise<RuleMatch[]> {
    const found: RuleMatch[] = [];
    onProgress?.(0, rules.length);
    const scans = new IdentityScans(profile, this.indexes, rules);
    for (const [i, rule] of rules.entries()) {
      found.push(...searchRule(rule, profile, this.indexes, scans));
      onProgress?.(i + 1, rules.length);
      await nextTurn();
    }
    return found;
  }

  /** CODIS identity search over every index of a kind (keyboard search, and identity searches the lead runs). */
  identity(kind: ProfileKind, query: ReadonlyMap<string, Genotype>, options: IdentityOptions, excludeId?: string): IdentityCandidate[] {
    return this.indexes.indexes(kind).flatMap((index) => searchIdentity(index, query, options, excludeId));
  }
}
