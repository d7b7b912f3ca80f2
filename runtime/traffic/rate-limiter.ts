/**
 * Rate limits per client IP and per token (fixed windows, counters in a CounterStore).
 * Settings (seconds for windows):
 *   RateLimiting:Enabled (true), IpLimit (100), IpWindow (60), TokenLimit (100), TokenWindow (60)
 * Headers on every limited response: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset
 * (Unix time in seconds when the window closes) of the tighter of the two budgets; a 429 adds
 * Retry-After (seconds) and X-RateLimit-Resource (`ip` or `token`).
 */
import { WharfError } from '../errors/wharf-error.js';
import type { ConfigSource } from '../settings/config-source.js';
import type { CounterHit, CounterStore } from './counter-store.js';

/** The RateLimiting:* group; this reader is the only place those keys are spelled. */
export interface RateLimitSettings {
  readonly enabled: boolean;
  readonly ipLimit: number;
  readonly ipWindowSeconds: number;
  readonly tokenLimit: number;
  readonly tokenWindowSeconds: number;
}

export function readRateLimitSettings(source: ConfigSource): RateLimitSettings {
  return {
    enabled: source.bool('RateLimiting:Enabled'),
    ipLimit: source.int('RateLimiting:IpLimit'),
    ipWindowSeconds: source.int('RateLimiting:IpWindow'),
    tokenLimit: source.int('RateLimiting:TokenLimit'),
    tokenWindowSeconds: source.int('RateLimiting:TokenWindow'),
  };
}

export type RateLimitResource = 'ip' | 'token';

export interface RateDecision {
  readonly resource: RateLimitResource;
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Epoch ms when the window closes. */
  readonly resetAt: number;
}

export class RateLimiter {
  constructor(
    readonly settings: RateLimitSettings,
    readonly store: CounterStore,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.settings.enabled;
  }

  async check(resource: RateLimitResource, id: string): Promise<RateDecision> {
    const windowSeconds = resource === 'ip' ? this.settings.ipWindowSeconds : this.settings.tokenWindowSeconds;
    return this.#decide(resource, await this.store.hit(`${resource}:${id}`, windowSeconds * 1000));
  }

  /** True when checkSync() answers (the counters are in memory): admission then needs no await. */
  get synchronous(): boolean {
    return this.store.hitSync !== undefined;
  }

  /** check() without waiting; only when `synchronous` (throws otherwise). */
  checkSync(resource: RateLimitResource, id: string): RateDecision {
    const store = this.store;
    if (store.hitSync === undefined) throw new Error(`the ${store.kind} counter store answers asynchronously: use check()`);
    const windowSeconds = resource === 'ip' ? this.settings.ipWindowSeconds : this.settings.tokenWindowSeconds;
    return this.#decide(resource, store.hitSync(`${resource}:${id}`, windowSeconds * 1000));
  }

  #decide(resource: RateLimitResource, hit: CounterHit): RateDecision {
    const limit = resource === 'ip' ? this.settings.ipLimit : this.settings.tokenLimit;
    const count = hit.count;
    return { resource, allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetAt: hit.resetAt };
  }

  /** Seconds until the window closes, at least 1. */
  retryAfterSeconds(decision: RateDecision): number {
    return Math.max(1, Math.ceil((decision.resetAt - this.now()) / 1000));
  }

  /** The 429 for a refused decision, with every header it needs. */
  exceeded(decision: RateDecision): WharfError<'TRAFFIC_RATE_LIMITED'> {
    const seconds = this.retryAfterSeconds(decision);
    return new WharfError('TRAFFIC_RATE_LIMITED', { seconds }, {
      headers: {
        ...rateLimitHeaders(decision),
        'Retry-After': String(seconds),
        'X-RateLimit-Resource': decision.resource,
      },
    });
  }
}

/** The budget to report: a refused one, else the one with the least remaining. */
export function tighter(a: RateDecision | null, b: RateDecision | null): RateDecision | null {
  if (!a) return b;
  if (!b) return a;
  if (a.allowed !== b.allowed) return a.allowed ? b : a;
  return b.remaining < a.remaining ? b : a;
}

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(Math.ceil(decision.resetAt / 1000)),
  };
}
