/**
 * One timer that sweeps a list of things in flight for those past a time limit (the request gate's
 * handler timeout, the PostgreSQL driver's command timeout), instead of a timer per request or
 * query: it runs a tenth of the limit apart, at least every 10 ms and at most every second, so a
 * limit is enforced that much late at most. Unref'd: it never keeps the process alive.
 */
export function startSweep(limitMs: number, sweep: () => void): NodeJS.Timeout {
  const timer = setInterval(sweep, Math.min(1000, Math.max(10, Math.floor(limitMs / 10))));
  timer.unref();
  return timer;
}
