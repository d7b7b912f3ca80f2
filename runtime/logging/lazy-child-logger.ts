/**
 * `request.log` without a pino child logger per request: fastify makes one for every request
 * (binding its `reqId`), though most requests never log through it (the request line is written
 * by request-log.ts through the server's logger, with `reqId` as its first field: the same line).
 * This stands in for the child and makes the real one the first time a line at an enabled level
 * is written through it. Measured on a bare route: a logger that writes nothing cost 2 to 7 µs
 * of CPU per request, most of it the child (docs/performance.md).
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Record<string, unknown>;
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = Parameters<FastifyBaseLogger['info']>;

export class LazyChildLogger {
  #real: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly ownBindings: Bindings,
  ) {}

  /** The pino child, made on first use. */
  private get real(): FastifyBaseLogger {
    this.#real ??= this.parent.child(this.ownBindings);
    return this.#real;
  }

  /** Whether it has been needed (tests). */
  get materialized(): boolean {
    return this.#real !== null;
  }

  get level(): string {
    return this.#real?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  private write(level: Level, args: LogArgs): void {
    // the parent's level decides while no child exists (a child with its own level is made at once)
    if (this.#real === null && !(this.parent as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled(level)) return;
    (this.real[level] as (...a: LogArgs) => void)(...args);
  }

  fatal(...args: LogArgs): void {
    this.write('fatal', args);
  }

  error(...args: LogArgs): void {
    this.write('error', args);
  }

  warn(...args: LogArgs): void {
    this.write('warn', args);
  }

  info(...args: LogArgs): void {
    this.write('info', args);
  }

  debug(...args: LogArgs): void {
    this.write('debug', args);
  }

  trace(...args: LogArgs): void {
    this.write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: Record<string, unknown>): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }

  bindings(): Bindings {
    return { ...(this.parent as unknown as { bindings(): Bindings }).bindings(), ...this.ownBindings };
  }
}

/** fastify's `childLoggerFactory`: the lazy stand-in, or a real child when the route sets its own level or serializers. */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) => {
  if (options && Object.keys(options).length > 0) return logger.child(bindings, options);
  return new LazyChildLogger(logger, bindings) as unknown as FastifyBaseLogger;
};
