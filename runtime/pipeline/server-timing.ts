/**
 * Per-request stage timings, sent as `Server-Timing: parse;dur=0.02, resolve;dur=0.01, handler;dur=3.1`
 * (milliseconds, in the order the stages ran). Handlers may add their own (e.g. `db`).
 */
import { performance } from 'node:perf_hooks';

export class ServerTiming {
  readonly #done: { name: string; ms: number }[] = [];
  readonly #open = new Map<string, number>();

  start(name: string): void {
    this.#open.set(name, performance.now());
  }

  /** Ends an open measurement; ignored when `name` is not open (already ended). */
  end(name: string): void {
    const started = this.#open.get(name);
    if (started === undefined) return;
    this.#open.delete(name);
    this.#done.push({ name, ms: performance.now() - started });
  }

  async measure<T>(name: string, run: () => T | Promise<T>): Promise<T> {
    this.start(name);
    try {
      return await run();
    } finally {
      this.end(name);
    }
  }

  /** Ends whatever is still open and renders the header value ('' when nothing was measured). */
  header(): string {
    for (const name of [...this.#open.keys()]) this.end(name);
    return this.#done.map(({ name, ms }) => `${name};dur=${ms.toFixed(3)}`).join(', ');
  }
}
