/** Time as the app sees it; tests pass a fixed or advancing clock. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
