import type { Genotype } from '../genetics/types';
import type { GenotypeLr } from './genotype-lr-plan';

/**
 * A candidate's mixture LR from a search's per-marker tables (GENETICS.md "How the search reaches memory speed"): each
 * table value is mixtureLr's LR at that marker for that genotype (to 1e-12 relative, tests/unit/server/genetics/mixture/
 * candidate-lr.test.ts), so over the markers the candidate is typed at, in the evidence's marker order, Σ log10 gives
 * mixtureLr's log10 LR and 10^Σ its LR — without enumerating every marker's contributors again. Null where the tables
 * cannot stand for the calculator: a genotype of more than two alleles (no table entry), or a factor 0 (the calculator
 * may instead refuse the case: Hd cannot explain the evidence).
 */
export function tableMixtureLr(tables: ReadonlyMap<string, GenotypeLr>, candidate: ReadonlyMap<string, Genotype>): { lr: number; markerCount: number } | null {
  let log10 = 0;
  let markerCount = 0;
  for (const [marker, lr] of tables) {
    const genotype = candidate.get(marker);
    if (!genotype || genotype.length === 0) continue;
    const value = lr(genotype);
    if (value === undefined || !(value > 0)) return null;
    log10 += Math.log10(value);
    markerCount++;
  }
  return { lr: 10 ** log10, markerCount };
}
