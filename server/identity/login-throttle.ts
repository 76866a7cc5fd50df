import type { Clock } from '../clock';

/** The window failed sign-ins are counted in (config LOGIN_RATE_LIMIT is per this window). */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

/**
 * How many times the per-account limit one client address may fail, over every e-mail it tries: a lab
 * behind one address has many users, while a guesser spraying one password over many accounts is held.
 */
export const ADDRESS_LIMIT_FACTOR = 5;

/** Failures per key in a fixed window that starts at the key's first failure. */
class FailureCounts {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly clock: Clock,
  ) {}

  /** When the key's block ends, or undefined when it may still try. */
  blockedUntil(key: string): number | undefined {
    const entry = this.current(key);
    return entry !== undefined && entry.count >= this.limit ? entry.resetAt : undefined;
  }

  record(key: string): void {
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

/**
 * Failed sign-ins per account (e-mail, from any address) and per client address (over any e-mail).
 * Either count at its limit refuses the next try, right password or not, until its window ends: a
 * guesser cannot escape by changing address, nor spread guesses over accounts. Only failures count,
 * which @fastify/rate-limit cannot do (it counts every request), hence these small maps. In-process:
 * a restart forgets the counts (users.failedSignIns keeps the durable tally).
 */
export class LoginThrottle {
  private readonly accounts: FailureCounts;
  private readonly addresses: FailureCounts;

  constructor(accountLimit: number, clock: Clock) {
    this.accounts = new FailureCounts(accountLimit, clock);
    this.addresses = new FailureCounts(accountLimit * ADDRESS_LIMIT_FACTOR, clock);
  }

  private static account(email: string): string {
    return email.trim().toLowerCase();
  }

  /** When the later of the account's and the address's blocks ends; undefined when neither is blocked. */
  blockedUntil(email: string, ip: string): Date | undefined {
    const ends = [this.accounts.blockedUntil(LoginThrottle.account(email)), this.addresses.blockedUntil(ip)].filter((t) => t !== undefined);
    return ends.length > 0 ? new Date(Math.max(...ends)) : undefined;
  }

  recordFailure(email: string, ip: string): void {
    this.accounts.record(LoginThrottle.account(email));
    this.addresses.record(ip);
  }

  /**
   * The account's owner proved the password: its count starts again. The address keeps its count, or
   * a guesser with an account of their own could clear it between guesses.
   */
  recordSuccess(email: string): void {
    this.accounts.reset(LoginThrottle.account(email));
  }
}
