/**
 * SIGTERM / SIGINT, shaped for a load balancer (docs/deployment.md):
 *
 * 1. **unready**: /health/ready answers 503 at once (health/ready.ts); everything else is served as
 *    before for Server:ShutdownDelaySeconds (SIGTERM only; Ctrl-C's SIGINT skips the delay), so a
 *    balancer polling readiness takes the instance out of rotation while it still answers;
 * 2. **stops accepting**: the port is released, so a new connection is refused, which every
 *    balancer retries on another instance (a refused connection carried no request);
 * 3. **finishes what it accepted**: requests in flight and requests still arriving on connections
 *    accepted before are served, each answer with Connection: close; connections that stay idle
 *    are closed after a short settle time;
 * 4. when none is in flight, the server closes (its onClose hooks close database pools, Redis, the
 *    token store's file) and the process exits 0.
 *
 * Server:ShutdownTimeoutSeconds counts from the signal: then the requests still in flight are
 * answered 503 SERVER_SHUTTING_DOWN with the project's error body, the remaining work is abandoned
 * and the process exits 1. A second signal exits at once.
 */
import type { Server as HttpServer } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { StartedServer } from '../start.js';

export interface ShutdownLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ShutdownOptions {
  readonly deadlineMs: number;
  /** SIGTERM: how long the instance keeps serving while unready (Server:ShutdownDelaySeconds). */
  readonly delayMs?: number;
  readonly log: ShutdownLog;
  /** Work before the server closes (e.g. stop watching files). */
  readonly beforeClose?: () => Promise<void>;
  /** Default process.exit. */
  readonly exit?: (code: number) => void;
}

/** How long the 503s written at the deadline get to leave before the process exits. */
const FLUSH_MS = 100;
/**
 * After the port is released: at most this long for the open connections to end by themselves
 * (each answer now carries Connection: close) before the idle ones left are closed. Ends as soon as
 * none is open. A client that sends on a connection at the very moment it is closed sees a reset;
 * waiting first makes that rare for a client that is still sending.
 */
const SETTLE_MAX_MS = 1000;
const SETTLE_POLL_MS = 20;

function openConnections(server: NetServer): Promise<number> {
  return new Promise((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
}

async function settle(server: NetServer): Promise<void> {
  const until = performance.now() + SETTLE_MAX_MS;
  while (performance.now() < until && (await openConnections(server)) > 0) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

/** Releases the port without closing idle keep-alive connections (http.Server.close would). */
function stopListening(server: NetServer): Promise<void> {
  return new Promise((resolve) => NetServer.prototype.close.call(server, () => resolve()));
}

const SIGNAL_NUMBERS: Readonly<Record<string, number>> = { SIGINT: 2, SIGTERM: 15 };

/** Logging must never stop a shutdown (stdout may be a closed pipe once the parent is gone). */
function safeLog(log: ShutdownLog): ShutdownLog {
  const guard =
    (level: keyof ShutdownLog) =>
    (obj: object, msg: string): void => {
      try {
        log[level](obj, msg);
      } catch {
        // nowhere to write
      }
    };
  return { info: guard('info'), warn: guard('warn'), error: guard('error') };
}

/** The shutdown asked for without a signal (a cluster worker is told by its primary, workers.ts). */
export interface ShutdownControl {
  /** What a first signal does; nothing when the shutdown is under way already. */
  stop(signal: NodeJS.Signals): void;
  /** What a second signal does: exit at once. */
  force(signal: NodeJS.Signals): void;
}

/**
 * The same signal again this soon after the first is the first one delivered twice, not a second
 * request: a terminal's Ctrl-C reaches every process of the foreground group, and `npm start`
 * (or `npm run`) forwards it to its child as well, so the server gets SIGINT twice at once.
 */
export const REPEATED_SIGNAL_MS = 1000;

/** Tells a repeated delivery of the first signal (see REPEATED_SIGNAL_MS) from a real second signal. */
export function signalEcho(now: () => number = Date.now): (signal: NodeJS.Signals) => boolean {
  let first: { readonly signal: NodeJS.Signals; readonly at: number } | null = null;
  return (signal) => {
    if (first === null) {
      first = { signal, at: now() };
      return false;
    }
    return signal === first.signal && now() - first.at < REPEATED_SIGNAL_MS;
  };
}

export function handleShutdownSignals(server: StartedServer, options: ShutdownOptions): ShutdownControl {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const log = safeLog(options.log);
  let stopping = false;
  const echo = signalEcho();

  const onSignal = (signal: NodeJS.Signals, forced = false): void => {
    if (!forced && echo(signal) && stopping) {
      log.info({ event: 'server.signal_repeated', signal }, `${signal} again within ${REPEATED_SIGNAL_MS} ms (a terminal and npm both deliver Ctrl-C): still finishing; send it again later to exit at once`);
      return;
    }
    if (stopping) {
      log.warn({ event: 'server.shutdown_forced', signal }, 'second signal: exiting now');
      exit(128 + (SIGNAL_NUMBERS[signal] ?? 0));
      return;
    }
    stopping = true;
    const { requestGate: gate, readiness } = server.app;
    readiness.stopping();
    const delayMs = signal === 'SIGTERM' ? (options.delayMs ?? 0) : 0;
    let abandoned = false;
    const deadline = setTimeout(() => {
      abandoned = true;
      const cut = gate.cutOff();
      log.warn({ event: 'server.shutdown_deadline', cutOff: cut, deadlineMs: options.deadlineMs }, 'shutdown deadline reached: abandoning the remaining work');
      setTimeout(() => exit(1), FLUSH_MS);
    }, options.deadlineMs);
    log.info({ event: 'server.shutdown', signal, inFlight: gate.inFlight, delayMs, deadlineMs: options.deadlineMs }, 'shutting down: unready, still serving');
    void (async () => {
      try {
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        gate.lastResponses();
        void stopListening(server.app.server); // the port is free at once; the callback waits for every connection
        readiness.finishing();
        log.info({ event: 'server.stopped_accepting', inFlight: gate.inFlight }, 'port closed: finishing the requests accepted');
        await options.beforeClose?.();
        await settle(server.app.server);
        (server.app.server as HttpServer).closeIdleConnections();
        await gate.drained();
        await server.close();
      } catch (error) {
        log.error({ event: 'server.shutdown_error', err: error }, 'error while shutting down');
      }
      clearTimeout(deadline);
      log.info({ event: 'server.stopped' }, 'stopped');
      exit(abandoned ? 1 : 0);
    })();
  };
  process.on('SIGTERM', (signal) => onSignal(signal));
  process.on('SIGINT', (signal) => onSignal(signal));
  return {
    stop: (signal) => {
      if (!stopping) onSignal(signal);
    },
    force: (signal) => {
      stopping = true;
      onSignal(signal, true);
    },
  };
}
