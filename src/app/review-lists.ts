import type { ReviewCounts } from '../../core/schemas/review-counts';
import type { RouteName } from './routes';

/** "1 profile waiting for review" / "3 hits waiting for review". */
export const waitingForReview = (n: number, one: string, many: string) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many} waiting for review`;

/**
 * The two review lists whose waiting records are counted (issue 18): the figure of GET review-counts,
 * the navigation entry its badge sits beside, the list it leads to, and its noun.
 */
export const REVIEW_LISTS = [
  { key: 'profilesPending', area: 'Profiles', list: 'ProfilesReview', one: 'profile', many: 'profiles' },
  { key: 'hitsPending', area: 'Hits', list: 'Hits', one: 'hit', many: 'hits' },
] as const satisfies readonly { key: keyof ReviewCounts; area: RouteName; list: RouteName; one: string; many: string }[];
