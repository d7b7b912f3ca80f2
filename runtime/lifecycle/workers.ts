/**
 * `wharf start` with Server:Workers above 1 (worker-count.ts): this process becomes a primary that
 * serves nothing itself; it forks the workers with node:cluster, each runs the whole server
 * (runtime/main.ts) and listens on the same port (the primary hands each accepted connection to a
 * worker in turn).
 *
 * - Start: the first worker starts alone, prints the banner and creates what an empty store needs
 *   once (the first console administrator, the demo token, the store's tables); then the others
 *   start, without a banner. A worker that ends before it serves ends the start: the others are
 *   stopped and the primary exits with the worker's code (a bad setting, a taken port: exit 2).
 * - A worker that ends later is logged (`workers.exited`) and replaced after a backoff (0.1 s, doubling
 *   up to 10 s; back to 0.1 s once a replacement has served 10 s), never in a tight loop.
 * - SIGTERM/SIGINT to the primary: every worker is told to shut down (the same graceful shutdown as
 *   a single process, graceful-shutdown.ts, with Server:ShutdownDelaySeconds and
 *   ShutdownTimeoutSeconds); no worker is replaced any more; the primary exits when the last one has,
 *   with the worst exit code. A second signal forces every worker and the primary out at once.
 *   A worker is told by message, not by signal: a terminal's Ctrl-C (and systemd's stop) also signal
 *   each worker directly, and the two must count as one.
 */
import cluster, { type Worker } from 'node:cluster';
import { constants, hostname } from 'node:os';
import type { LogLevel } from '../settings/server-settings.js';
import { REPEATED_SIGNAL_MS, signalEcho, type ShutdownControl } from './graceful-shutdown.js';

/** Set in a worker's environment: its slot (1..N). */
const SLOT_ENV = 'WHARF_WORKER';
/** Set for the first worker of a start: it prints the banner. */
const BANNER_ENV = 'WHARF_WORKER_BANNER';

const BACKOFF_FIRST_MS = 100;
const BACKOFF_MAX_MS = 10_000;
/** A replacement that served this long resets the backoff. */
const HEALTHY_MS = 10_000;
/** After the workers' own shutdown deadline: how long the primary waits before it kills them. */
const BACKSTOP_MS = 5_000;

const signalNumber = (signal: string): number => constants.signals[signal as keyof typeof constants.signals] ?? 0;

interface ToWorker {
  readonly wharf: 'shutdown';
  readonly signal: NodeJS.Signals;
  readonly force: boolean;
}

interface FromWorker {
  readonly wharf: 'serving';
}

// ---- in a worker ----

/** Whether this process prints the banner: a single process, or the first worker of a start. */
export function printsBanner(): boolean {
  return !cluster.isWorker || process.env[BANNER_ENV] === '1';
}

/** In a worker: shut down when the primary says so, and tell it once serving. No-op in a single process. */
export function followPrimary(control: ShutdownControl): void {
  if (!cluster.isWorker) return;
  process.on('message', (message: Partial<ToWorker>) => {
    if (message?.wharf !== 'shutdown' || !message.signal) return;
    if (message.force) control.force(message.signal);
    else control.stop(message.signal);
  });
}

export function tellPrimaryServing(): void {
  if (cluster.isWorker) process.send?.({ wharf: 'serving' } satisfies FromWorker);
}

// ---- in the primary ----

export interface PrimaryOptions {
  readonly count: number;
  /** The module each worker runs (runtime/main.js, or main.ts with tsx). */
  readonly exec: string;
  readonly args: readonly string[];
  readonly execArgv?: readonly string[];
  /** Server:ShutdownTimeoutSeconds: the primary kills workers still running BACKSTOP_MS after it. */
  readonly shutdownTimeoutSeconds: number;
  /** Logging:MinLevel: the primary's lines below it are not written. */
  readonly logLevel?: LogLevel;
  readonly write?: (line: string) => void;
  readonly exit?: (code: number) => void;
}

interface Slot {
  readonly index: number;
  worker: Worker | null;
  failures: number;
  servingSince: number | null;
  restartTimer: NodeJS.Timeout | null;
}

/** A pino-shaped JSON line (the workers' lines are pino's), or a plain line on a terminal. */
const LEVELS: Readonly<Record<LogLevel, number>> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

function primaryLogger(write: (line: string) => void, minLevel: LogLevel) {
  const pretty = process.stdout.isTTY === true;
  const line = (level: number, name: string, fields: object, msg: string): void => {
    if (level < LEVELS[minLevel]) return;
    try {
      if (pretty) write(`[${new Date().toTimeString().slice(0, 8)}] ${name}: ${msg}\n`);
      else write(`${JSON.stringify({ level, time: Date.now(), pid: process.pid, hostname: hostname(), ...fields, msg })}\n`);
    } catch {
      // stdout gone: nothing to write to
    }
  };
  return {
    info: (fields: object, msg: string) => line(30, 'INFO', fields, msg),
    warn: (fields: object, msg: string) => line(40, 'WARN', fields, msg),
    error: (fields: object, msg: string) => line(50, 'ERROR', fields, msg),
  };
}

/** The exit code a worker's end stands for: its code, or 128 + the signal's number. */
function exitCode(code: number | null, signal: string | null): number {
  if (code !== null) return code;
  return 128 + (signal ? signalNumber(signal) : 0);
}

/** Runs the primary: forks and supervises the workers until a signal; the process then exits. */
export function runPrimary(options: PrimaryOptions): void {
  const log = primaryLogger(options.write ?? ((line) => process.stdout.write(line)), options.logLevel ?? 'info');
  const exit = options.exit ?? ((code: number) => process.exit(code));
  cluster.setupPrimary({ exec: options.exec, args: [...options.args], execArgv: [...(options.execArgv ?? process.execArgv)] });
  const slots: Slot[] = Array.from({ length: options.count }, (_, i) => ({ index: i + 1, worker: null, failures: 0, servingSince: null, restartTimer: null }));
  let starting = true;
  let stopping = false;
  const echo = signalEcho();
  let worst = 0;

  const live = (): Worker[] => slots.flatMap((slot) => (slot.worker ? [slot.worker] : []));
  const tell = (message: ToWorker): void => {
    for (const worker of live()) {
      try {
        worker.send(message);
      } catch {
        // its channel is closed: it is ending
      }
    }
  };
  const finishIfDone = (): void => {
    if (stopping && live().length === 0) {
      log.info({ event: 'workers.stopped', exitCode: worst }, 'every worker has stopped');
      exit(worst);
    }
  };

  const stopAll = (signal: NodeJS.Signals): void => {
    stopping = true;
    for (const slot of slots) if (slot.restartTimer) clearTimeout(slot.restartTimer);
    tell({ wharf: 'shutdown', signal, force: false });
    const backstop = setTimeout(() => {
      log.error({ event: 'workers.killed', pids: live().map((w) => w.process.pid) }, 'workers still running after the shutdown deadline: killed');
      for (const worker of live()) worker.process.kill('SIGKILL');
      worst = Math.max(worst, 1);
    }, options.shutdownTimeoutSeconds * 1000 + BACKSTOP_MS);
    backstop.unref();
    finishIfDone();
  };

  const fork = (slot: Slot, banner: boolean): void => {
    slot.restartTimer = null;
    const worker = cluster.fork({ [SLOT_ENV]: String(slot.index), [BANNER_ENV]: banner ? '1' : '0' });
    slot.worker = worker;
    slot.servingSince = null;
    worker.on('message', (message: Partial<FromWorker>) => {
      if (message?.wharf !== 'serving') return;
      slot.servingSince = Date.now();
      if (stopping) {
        // it started after the signal was told to the others: it is told now
        worker.send({ wharf: 'shutdown', signal: 'SIGTERM', force: false } satisfies ToWorker);
        return;
      }
      if (!starting) {
        log.info({ event: 'workers.replaced', worker: slot.index, workerPid: worker.process.pid }, `worker ${slot.index} serving again (pid ${worker.process.pid})`);
        return;
      }
      if (slot.index === 1) {
        for (const other of slots.slice(1)) fork(other, false);
      }
      if (slots.every((s) => s.servingSince !== null)) {
        starting = false;
        log.info({ event: 'workers.started', workers: options.count, pids: live().map((w) => w.process.pid) }, `${options.count} workers serving`);
      }
    });
    worker.on('exit', (code, signal) => {
      slot.worker = null;
      const ended = exitCode(code, signal);
      const served = slot.servingSince === null ? 0 : Date.now() - slot.servingSince;
      if (stopping) {
        worst = Math.max(worst, ended);
        finishIfDone();
        return;
      }
      if (starting) {
        log.error({ event: 'workers.start_failed', worker: slot.index, workerPid: worker.process.pid, exitCode: ended }, `worker ${slot.index} ended before serving (exit ${ended}): stopping`);
        worst = Math.max(worst, ended || 1);
        stopAll('SIGTERM');
        return;
      }
      slot.failures = served >= HEALTHY_MS ? 0 : slot.failures + 1;
      const delayMs = Math.min(BACKOFF_FIRST_MS * 2 ** Math.max(0, slot.failures - 1), BACKOFF_MAX_MS);
      log.error(
        { event: 'workers.exited', worker: slot.index, workerPid: worker.process.pid, code, signal, restartInMs: delayMs },
        `worker ${slot.index} (pid ${worker.process.pid}) ended (${signal ?? `exit ${code}`}): replaced in ${delayMs} ms`,
      );
      slot.restartTimer = setTimeout(() => fork(slot, false), delayMs);
    });
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    if (echo(signal) && stopping) {
      log.info({ event: 'workers.signal_repeated', signal }, `${signal} again within ${REPEATED_SIGNAL_MS} ms (a terminal and npm both deliver Ctrl-C): still finishing`);
      return;
    }
    if (stopping) {
      log.warn({ event: 'workers.shutdown_forced', signal }, 'second signal: every worker exits now');
      tell({ wharf: 'shutdown', signal, force: true });
      exit(128 + signalNumber(signal));
      return;
    }
    log.info({ event: 'workers.shutdown', signal, workers: live().length }, 'shutting down every worker');
    stopAll(signal);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  log.info({ event: 'workers.starting', workers: options.count }, `starting ${options.count} workers`);
  fork(slots[0] as Slot, true);
}
