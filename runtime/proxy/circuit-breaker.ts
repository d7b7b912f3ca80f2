/**
 * Circuit breaker (after Envoy's outlier detection, consecutive-failure flavour), one circuit per
 * key: `threshold` failures in a row open the circuit for `openMs`; while open the key is skipped
 * (the next fallback URL is tried at once). After `openMs` one probe request is let through:
 * success closes the circuit, failure opens it for another `openMs`. threshold 0 = never opens.
 * The caller chooses the key and what counts as a failure (failover.ts: per endpoint and key,
 * connection failures and timeouts only, so no caller can open another endpoint's circuit).
 */
interface KeyState {
  failures: number;
  openUntil: number;
  probing: boolean;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

export class CircuitBreaker {
  readonly #keys = new Map<string, KeyState>();

  constructor(
    private readonly threshold: number,
    private readonly openMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  #state(key: string): KeyState {
    let state = this.#keys.get(key);
    if (!state) {
      state = { failures: 0, openUntil: 0, probing: false };
      this.#keys.set(key, state);
    }
    return state;
  }

  stateOf(key: string): CircuitState {
    const state = this.#keys.get(key);
    if (!state || state.openUntil === 0) return 'closed';
    return this.now() < state.openUntil || state.probing ? 'open' : 'half-open';
  }

  /** May a request go to the key now? A true in half-open state makes this caller the probe. */
  allow(key: string): boolean {
    if (this.threshold === 0) return true;
    const state = this.#state(key);
    if (state.openUntil === 0) return true;
    if (this.now() < state.openUntil || state.probing) return false;
    state.probing = true;
    return true;
  }

  success(key: string): void {
    const state = this.#keys.get(key);
    if (!state) return;
    state.failures = 0;
    state.openUntil = 0;
    state.probing = false;
  }

  failure(key: string): void {
    if (this.threshold === 0) return;
    const state = this.#state(key);
    state.failures += 1;
    if (state.probing || state.failures >= this.threshold) {
      state.openUntil = this.now() + this.openMs;
      state.probing = false;
    }
  }
}
