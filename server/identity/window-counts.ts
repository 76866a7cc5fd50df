import type { Clock } from '../clock';

/** Events (failed sign-ins, token requests) per key in a fixed window that starts at the key's first event. */
export class WindowCounts {
  private readonly events = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
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
    else this.events.set(key, { count: 1, resetAt: now + this.windowMs });
    if (this.events.size > 10_000) this.prune(now);
  }

  reset(key: string): void {
    this.events.delete(key);
  }

  private current(key: string) {
    const entry = this.events.get(key);
    if (entry && entry.resetAt <= this.clock.now().getTime()) {
      this.events.delete(key);
      return undefined;
    }
    return entry;
  }

  private prune(now: number): void {
    for (const [key, entry] of this.events) if (entry.resetAt <= now) this.events.delete(key);
  }
}
