/**
 * SIGTERM / SIGINT: stop accepting, let the requests in flight finish, close the server (its
 * onClose hooks close database pools, Redis, the token store's file), exit 0. Requests that arrive
 * on open connections meanwhile get 503 SERVER_SHUTTING_DOWN (request-gate.ts). After
 * Server:ShutdownTimeoutSeconds the requests still in flight are answered 503 with the project's
 * error body, the remaining work is abandoned and the process exits 1. A second signal exits at once.
 */
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

const SIGNAL_NUMBERS: Readonly<Record<string, number>> = { SIGINT: 2, SIGTERM: 15 };

export function handleShutdownSignals(server: StartedServer, options: ShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const { log } = options;
  let stopping = false;

  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      log.warn({ event: 'server.shutdown_forced', signal }, 'second signal: exiting now');
      exit(128 + (SIGNAL_NUMBERS[signal] ?? 0));
      return;
    }
    stopping = true;
    const gate = server.app.requestGate;
    log.info({ event: 'server.shutdown', signal, inFlight: gate.inFlight, deadlineMs: options.deadlineMs }, 'shutting down');
    let abandoned = false;
    const deadline = setTimeout(() => {
      abandoned = true;
      const cut = gate.cutOff();
      log.warn({ event: 'server.shutdown_deadline', cutOff: cut, deadlineMs: options.deadlineMs }, 'shutdown deadline reached: abandoning the remaining work');
      setTimeout(() => exit(1), FLUSH_MS);
    }, options.deadlineMs);
    void (async () => {
      try {
        await options.beforeClose?.();
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
