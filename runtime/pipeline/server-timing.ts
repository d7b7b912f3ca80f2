/**
 * Per-request stage timings, sent as `Server-Timing: parse;dur=0.02, resolve;dur=0.01, handler;dur=3.1`
 * (milliseconds, in the order the measurements ended) when `Server:ServerTiming` is on. Handlers
 * may add their own (e.g. `sql`). Kept cheap, it runs around every stage of every request:
 * parallel arrays, no Map, no closures. With the setting off (the default) every request shares
 * NO_TIMING, which measures nothing and renders no header.
 */
import { performance } from 'node:perf_hooks';

export class ServerTiming {
  /** False only for NO_TIMING: the pipeline skips its start/end calls. */
  get enabled(): boolean {
    return true;
  }

  readonly #names: string[] = [];
  readonly #ms: number[] = [];
  /** Open measurements in start order (rarely more than two). */
  readonly #openNames: string[] = [];
  readonly #openStarts: number[] = [];

  start(name: string): void {
    const at = performance.now();
    const index = this.#openNames.indexOf(name);
    if (index === -1) {
      this.#openNames.push(name);
      this.#openStarts.push(at);
    } else {
      // restarting an open measurement moves it to the end, like a Map delete + set
      this.#openNames.splice(index, 1);
      this.#openStarts.splice(index, 1);
      this.#openNames.push(name);
      this.#openStarts.push(at);
    }
  }

  /** Ends an open measurement; ignored when `name` is not open (already ended). */
  end(name: string): void {
    const index = this.#openNames.lastIndexOf(name);
    if (index === -1) return;
    const started = this.#openStarts[index] as number;
    this.#openNames.splice(index, 1);
    this.#openStarts.splice(index, 1);
    this.#names.push(name);
    this.#ms.push(performance.now() - started);
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
    while (this.#openNames.length > 0) this.end(this.#openNames[0] as string);
    let out = '';
    for (let i = 0; i < this.#names.length; i++) {
      out += `${i === 0 ? '' : ', '}${this.#names[i] as string};dur=${(this.#ms[i] as number).toFixed(3)}`;
    }
    return out;
  }
}

/** Measures nothing (Server:ServerTiming off): one shared instance, no allocation per request. */
class NoTiming extends ServerTiming {
  override get enabled(): boolean {
    return false;
  }
  override start(): void {}
  override end(): void {}
  override async measure<T>(_name: string, run: () => T | Promise<T>): Promise<T> {
    return run();
  }
  override header(): string {
    return '';
  }
}

export const NO_TIMING: ServerTiming = new NoTiming();
