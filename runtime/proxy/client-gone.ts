/**
 * The signal that cancels upstream work when the client goes away before its response is complete.
 * undici (`request({ signal })`) and `timers/promises` (the retry delay) accept any object with
 * `aborted`, `reason` and `addEventListener`/`removeEventListener`; an `AbortController` with its
 * `AbortSignal` (an EventTarget) cost about 6 µs of CPU per proxied request, measured under the
 * proxy bench's load (docs/proxy.md#performance). This one is a plain object with a listener list.
 */
import type { ServerResponse } from 'node:http';

type Listener = () => void;

export class ClientGone {
  aborted = false;
  reason: unknown = undefined;
  #listeners: Listener[] | null = null;

  /** Listens on `response`: its `close` before the response finished means the client went away. */
  static of(response: ServerResponse): ClientGone {
    const gone = new ClientGone();
    // `on`, not `once`: a response closes once, and `once` wraps the listener in two more objects
    response.on('close', () => {
      if (!response.writableFinished) gone.abort();
    });
    return gone;
  }

  addEventListener(_type: 'abort', listener: Listener): void {
    (this.#listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: Listener): void {
    const listeners = this.#listeners;
    const index = listeners?.indexOf(listener) ?? -1;
    if (index >= 0) listeners!.splice(index, 1);
  }

  /** Once: marks it aborted (reason: an AbortError) and calls each listener. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException('The client went away before its response was complete.', 'AbortError');
    const listeners = this.#listeners ?? [];
    this.#listeners = null;
    for (const listener of listeners) listener();
  }

  /** The type undici and timers/promises are declared with (they use only the members above). */
  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }
}
