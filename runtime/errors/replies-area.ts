/**
 * The replies area: one log line per request (runtime/logging/request-log.ts) at the level in
 * force (Logging:MinLevel, changed live from the console through the settings store), and the one
 * error handler that turns any error into the spec's body (error-handler.ts). Mounted before the
 * request hooks and routes, whose refusals it answers.
 */
import type { Area } from '../areas/area.js';
import { installRequestLog } from '../logging/request-log.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { installErrorHandling } from './error-handler.js';

export const repliesArea: Area<null, { readonly liveSettings: SettingsStore }> = {
  name: 'replies',
  slice: () => null,
  register(app, { infra }) {
    infra.liveSettings.subscribe((change) => {
      const level = change.get('Logging:MinLevel');
      if (typeof level === 'string' && app.log.level !== level) app.log.level = level;
    });
    installRequestLog(app);
    installErrorHandling(app);
  },
};
