/**
 * Per-origin circuit breaker (after Envoy's outlier detection, consecutive-failure flavour):
 * `threshold` failures in a row open the circuit for `openMs`; while open the origin is skipped
 * (the next fallback URL is tried at once). After `openMs` one probe request is let through:
 * success closes the circuit, failure opens it for another `openMs`. threshold 0 = never opens.
 */
interface OriginState {
  failures: number;
  openUntil: number;
  probing: boolean;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

export class CircuitBreaker {
  readonly #origins = new Map<string, OriginState>();

  constructor(
    private readonly threshold: number,
    private readonly openMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  #state(origin: string): OriginState {
    let state = this.#origins.get(origin);
    if (!state) {
      state = { failures: 0, openUntil: 0, probing: false };
      this.#origins.set(origin, state);
    }
    return state;
  }

  stateOf(origin: string): CircuitState {
    const state = this.#origins.get(origin);
    if (!state || state.openUntil === 0) return 'closed';
    return this.now() < state.openUntil || state.probing ? 'open' : 'half-open';
  }

  /** May a request go to the origin now? A true in half-open state makes this caller the probe. */
  allow(origin: string): boolean {
    if (this.threshold === 0) return true;
    const state = this.#state(origin);
    if (state.openUntil === 0) return true;
    if (this.now() < state.openUntil || state.probing) return false;
    state.probing = true;
    return true;
  }

  success(origin: string): void {
    const state = this.#origins.get(origin);
    if (!state) return;
    state.failures = 0;
    state.openUntil = 0;
    state.probing = false;
  }

  failure(origin: string): void {
    if (this.threshold === 0) return;
    const state = this.#state(origin);
    state.failures += 1;
    if (state.probing || state.failures >= this.threshold) {
      state.openUntil = this.now() + this.openMs;
      state.probing = false;
    }
  }
}
