/**
 * Sign-in attempts per client IP: at most WebUi:SignInAttemptsPerIp (default 10) per
 * WebUi:SignInWindowSeconds (default 300); counted on the access runtime's counter store (memory,
 * or Redis shared by every instance). Lockout per account is in accounts.ts.
 */
import type { CounterStore } from '../traffic/counter-store.js';

export interface SignInLimits {
  readonly attemptsPerIp: number;
  readonly windowSeconds: number;
}

export class SignInLimiter {
  constructor(
    private readonly counters: CounterStore,
    readonly limits: SignInLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt; the seconds to wait when over the budget, else null. */
  async hit(ip: string): Promise<number | null> {
    const { count, resetAt } = await this.counters.hit(`signin:${ip}`, this.limits.windowSeconds * 1000);
    if (count <= this.limits.attemptsPerIp) return null;
    return Math.max(1, Math.ceil((resetAt - this.now()) / 1000));
  }
}
