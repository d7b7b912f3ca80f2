/**
 * What the console area hands its routes (and returns to buildServer, for the gateway handle).
 * Its own module, so the route files import the type without importing console-api.ts, which
 * registers them.
 */
import type { AccountService, FirstAdmin } from './accounts.js';
import type { ConsoleEvents } from './console-events.js';
import type { ConsoleSettings } from './console-settings.js';
import type { SessionService } from './sessions.js';
import type { SharedConsoleSettings } from './shared-console-settings.js';

export interface ConsoleRuntime {
  readonly accounts: AccountService;
  readonly sessions: SessionService;
  readonly events: ConsoleEvents;
  settings: ConsoleSettings;
  readonly startedAt: number;
  /** The administrator this instance created on an empty store (null: the store had accounts). */
  firstAdmin: FirstAdmin | null;
  /** Console changes shared by every instance (PostgreSQL token store); null: this instance's files only. */
  shared: SharedConsoleSettings | null;
}
