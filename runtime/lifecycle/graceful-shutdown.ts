/**
 * SIGTERM / SIGINT: drain, then close. Draining: new requests get 503 SERVER_SHUTTING_DOWN with
 * Connection: close (request-gate.ts), requests in flight finish and close their connection, so no
 * client is left on a keep-alive connection that the close would cut. Then the server closes
 * (the port is released; its onClose hooks close database pools, Redis, the token store's file)
 * and the process exits 0. After
 * Server:ShutdownTimeoutSeconds the requests still in flight are answered 503 with the project's
 * error body, the remaining work is abandoned and the process exits 1. A second signal exits at once.
 */
import { Server as NetServer } from 'node:net';
import type { StartedServer } from '../start.js';

export interface ShutdownLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ShutdownOptions {
  readonly deadlineMs: number;
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
 * (a connection the kernel accepted just before delivers its request, gets 503 with Connection:
 * close and ends) before the idle ones left are closed. Ends as soon as none is open.
 */
const SETTLE_MAX_MS = 1000;
/**
 * The port stays open until, for this long, no request has arrived (each was answered 503 with
 * Connection: close) and none in flight has finished (its client reconnects at once): closing it
 * earlier resets connections waiting in the kernel's accept queue. Generous for a loaded machine.
 */
const QUIET_MS = 500;
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

export function handleShutdownSignals(server: StartedServer, options: ShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const log = safeLog(options.log);
  let stopping = false;

  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      log.warn({ event: 'server.shutdown_forced', signal }, 'second signal: exiting now');
      exit(128 + (SIGNAL_NUMBERS[signal] ?? 0));
      return;
    }
    stopping = true;
    const gate = server.app.requestGate;
    let abandoned = false;
    const deadline = setTimeout(() => {
      abandoned = true;
      const cut = gate.cutOff();
      log.warn({ event: 'server.shutdown_deadline', cutOff: cut, deadlineMs: options.deadlineMs }, 'shutdown deadline reached: abandoning the remaining work');
      setTimeout(() => exit(1), FLUSH_MS);
    }, options.deadlineMs);
    log.info({ event: 'server.shutdown', signal, inFlight: gate.inFlight, deadlineMs: options.deadlineMs }, 'shutting down');
    void (async () => {
      try {
        gate.close();
        await options.beforeClose?.();
        await gate.drained(QUIET_MS);
        void stopListening(server.app.server);
        await settle(server.app.server);
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
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
