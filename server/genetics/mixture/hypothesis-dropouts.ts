/**
 * Drop-out per contributor under each hypothesis (GENETICS.md "Mixtures"). Both lists have one value per contributor
 * in the same places: Hp the person of interest, the known contributors, the unknowns; Hd the unknown in the person of
 * interest's place, the known contributors, the other unknowns.
 */
export interface HypothesisDropouts {
  hp: number[];
  hd: number[];
  /** How Hd's drop-outs were set, in the reader's words (the answer, the screen, the PDF and the CSV say it). */
  hdRule: string;
}

/** The rule the default follows (LRmix Studio, forensim): said in every answer that uses it. */
export const LRMIX_HD_RULE = "LRmix convention: Hd's unknown in the person of interest's place takes the unknowns' drop-out (LRmix Studio, forensim)";
/** Said when Hp has no unknown, so there is no unknowns' value to give. */
export const NO_UNKNOWN_HD_RULE = "Hp has no unknown: the unknown in the person of interest's place under Hd takes the person of interest's drop-out (give Hd's drop-outs to set it)";
export const GIVEN_HD_RULE = "Hd's drop-outs set by the user";
/** Said when both hypotheses take the conservative estimate under Hd (the calculator, the mixture search). */
export const CONSERVATIVE_HD_RULE = 'Both hypotheses at the conservative estimate under Hd, one value for every contributor';
/** Said when a search weighs both hypotheses at Hd's maximum-likelihood drop-out (it needs no candidate). */
export const SEARCH_MAXIMUM_LIKELIHOOD_HD_RULE = 'Both hypotheses at the maximum-likelihood estimate under Hd, one value for every contributor';

/** One value for all contributors, or one per contributor, spread to one per contributor. */
const perContributor = (values: readonly number[], n: number) => (values.length === 1 ? new Array<number>(n).fill(values[0]!) : [...values]);

/**
 * Hp's and Hd's drop-outs from Hp's values and, when given, Hd's (each one value for all or one per contributor). By
 * default Hd follows LRmix Studio and forensim (Haned et al. 2012; Gill & Haned 2013): the known contributors keep
 * theirs and every unknown takes the unknowns' value (Hp's first unknown's), also the unknown standing where Hp has the
 * person of interest; the person of interest's own value never reaches Hd unless Hp has no unknown to take it from.
 */
export function hypothesisDropouts(contributors: number, known: number, hpValues: readonly number[], hdValues?: readonly number[]): HypothesisDropouts {
  const hp = perContributor(hpValues, contributors);
  if (hdValues) return { hp, hd: perContributor(hdValues, contributors), hdRule: GIVEN_HD_RULE };
  const unknownsValue = hp[1 + known];
  const hd = [unknownsValue ?? hp[0]!, ...hp.slice(1)];
  const allEqual = hp.every((d) => d === hp[0]);
  return { hp, hd, hdRule: unknownsValue === undefined && !allEqual ? NO_UNKNOWN_HD_RULE : LRMIX_HD_RULE };
}
