import type { Clock } from '../clock';

/** The window failed sign-ins are counted in (config LOGIN_RATE_LIMIT is per this window). */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

/**
 * Counts failed sign-ins per (e-mail, client address) in a fixed 15-minute window that starts at
 * the first failure. Only failures count, which @fastify/rate-limit cannot do (it counts every
 * request), hence this small map. In-process: a restart forgets the counts (users.failedSignIns
 * keeps the durable tally).
 */
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly clock: Clock,
  ) {}

  static key(email: string, ip: string): string {
    return `${email.trim().toLowerCase()}\u0000${ip}`;
  }

  /** True when this key already used up its failures in the current window. */
  isBlocked(key: string): boolean {
    const entry = this.current(key);
    return entry !== undefined && entry.count >= this.limit;
  }

  recordFailure(key: string): void {
    const now = this.clock.now().getTime();
    const entry = this.current(key);
    if (entry) entry.count += 1;
    else this.failures.set(key, { count: 1, resetAt: now + LOGIN_WINDOW_MS });
    if (this.failures.size > 10_000) this.prune(now);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private current(key: string) {
    const entry = this.failures.get(key);
    if (entry && entry.resetAt <= this.clock.now().getTime()) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }

  private prune(now: number): void {
    for (const [key, entry] of this.failures) if (entry.resetAt <= now) this.failures.delete(key);
  }
}
