import type { Clock } from '../clock';
import { WindowCounts } from './window-counts';

/** The window failed sign-ins are counted in (config LOGIN_RATE_LIMIT is per this window). */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

/**
 * How many times the per-account limit one client address may fail, over every e-mail it tries: a lab
 * behind one address has many users, while a guesser spraying one password over many accounts is held.
 */
export const ADDRESS_LIMIT_FACTOR = 5;

/**
 * Failed sign-ins per account (e-mail, from any address) and per client address (over any e-mail).
 * Either count at its limit refuses the next try, right password or not, until its window ends: a
 * guesser cannot escape by changing address, nor spread guesses over accounts. Only failures count,
 * which @fastify/rate-limit cannot do (it counts every request), hence these small maps. In-process:
 * a restart forgets the counts (users.failedSignIns keeps the durable tally).
 */
export class LoginThrottle {
  private readonly accounts: WindowCounts;
  private readonly addresses: WindowCounts;

  constructor(accountLimit: number, clock: Clock) {
    this.accounts = new WindowCounts(accountLimit, LOGIN_WINDOW_MS, clock);
    this.addresses = new WindowCounts(accountLimit * ADDRESS_LIMIT_FACTOR, LOGIN_WINDOW_MS, clock);
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
