/**
 * The replies area: one log line per request (runtime/logging/request-log.ts) and the one error
 * handler that turns any error into the spec's body (error-handler.ts). Mounted before the
 * request hooks and routes, whose refusals it answers.
 */
import type { Area } from '../areas/area.js';
import { installRequestLog } from '../logging/request-log.js';
import { installErrorHandling } from './error-handler.js';

export const repliesArea: Area<null> = {
  name: 'replies',
  slice: () => null,
  register(app) {
    installRequestLog(app);
    installErrorHandling(app);
  },
};
