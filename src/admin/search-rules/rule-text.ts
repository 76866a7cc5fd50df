import { STRINGENCY_LABELS, type SearchRule } from '../../../core/schemas/search-rules';

/** When a rule names no population (ARCHITECTURE.md "Search policy"). */
export const ALL_POPULATIONS_TEXT = "All of the organization's (not synthetic)";

const number = (n: number) => n.toLocaleString('en-GB', { maximumSignificantDigits: 6 });

/** The table's "Stringency or threshold": an identity stringency, or the threshold the analysis's results must meet. */
export function stringencyOrThreshold(rule: Pick<SearchRule, 'stringency' | 'minMarkers' | 'maxMismatches' | 'thresholdKind' | 'threshold' | 'analysisKind'>): string {
  if (rule.stringency) {
    const mismatches = rule.maxMismatches === 0 ? 'no mismatch' : `≤ ${rule.maxMismatches} mismatch${rule.maxMismatches === 1 ? '' : 'es'}`;
    return `Identity, ${STRINGENCY_LABELS[rule.stringency].toLowerCase()} (≥ ${rule.minMarkers} markers, ${mismatches})`;
  }
  if (rule.thresholdKind === 'expected-chance-hits') return rule.threshold === null ? 'Expected chance hits' : `≤ ${number(rule.threshold)} expected chance hits per search`;
  if (rule.threshold === null) return "The analysis's own threshold";
  return rule.analysisKind === 'Exclusion' ? `≤ ${number(rule.threshold)} exclusions` : `LR ≥ ${number(rule.threshold)}`;
}

/** The table's Populations column. */
export const populationsText = (rule: Pick<SearchRule, 'populationNames'>): string => (rule.populationNames.length > 0 ? rule.populationNames.join(', ') : ALL_POPULATIONS_TEXT);
