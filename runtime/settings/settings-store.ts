/**
 * The console's live setting changes, as one store: every change goes through `update` (PUT
 * /ui/api/settings on this instance, or the shared store's changes made on another one,
 * admin/shared-console-settings.ts), and each area that applies a writable setting live subscribes
 * to it (`subscribe`) and takes the keys it owns: the replies area Logging:MinLevel, the console
 * WebUi:SecureCookies and WebUi:PublicOrigins. Subscribers hear only the keys that apply live
 * (writable with `x-restart: false`, admin/writable-settings.ts); a key a `__` environment variable
 * sets is left out too: the variable wins, as at every start. Persisting the change (the
 * overrides file, the shared store) stays with the caller; this store only publishes it.
 */
import { findWritable } from '../admin/writable-settings.js';
import type { ConfigSource } from './config-source.js';

/** The keys of one change (colon form, matched without regard to case) and their checked values. */
export class SettingsChange {
  readonly #values = new Map<string, unknown>();

  constructor(entries: Iterable<readonly [string, unknown]>) {
    for (const [key, value] of entries) this.#values.set(key.toLowerCase(), value);
  }

  /** The new value of `key`, undefined when the change does not hold it. */
  get(key: string): unknown {
    return this.#values.get(key.toLowerCase());
  }

  get size(): number {
    return this.#values.size;
  }
}

export type SettingsListener = (change: SettingsChange) => void;

/** Whether a `__` environment variable sets `key` (for a list, any `key:<n>`). */
export function setByVariable(source: ConfigSource, key: string): boolean {
  return source.origin(key) === 'environment';
}

export class SettingsStore {
  readonly #listeners = new Set<SettingsListener>();

  /** `source`: the settings as loaded, to know which keys a variable sets. */
  constructor(private readonly source: ConfigSource) {}

  /** `listener` hears every change from now on; returns the unsubscribe. */
  subscribe(listener: SettingsListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Publishes `values` (already checked) to every subscriber: the live keys no variable sets. */
  update(values: Iterable<readonly [string, unknown]>): SettingsChange {
    const live = (key: string): boolean => findWritable(key)?.requiresRestart === false && !setByVariable(this.source, key);
    const change = new SettingsChange([...values].filter(([key]) => live(key)));
    if (change.size > 0) for (const listener of [...this.#listeners]) listener(change);
    return change;
  }
}
