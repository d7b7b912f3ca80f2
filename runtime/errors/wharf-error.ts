/** The one error class of the runtime. Anything else thrown is an internal error (500). */
import { ERROR_REGISTRY, formatErrorMessage } from './registry.js';
import type { ErrorArea, ErrorCode, ErrorParams } from './registry.js';

/** One entry of a 422 body's `details` (spec: array of objects with `field` and `message`). */
export interface ErrorDetail {
  readonly field: string;
  readonly message: string;
}

export interface WharfErrorOptions {
  readonly details?: readonly ErrorDetail[];
  /** Response headers that belong to the error (Allow on 405, Retry-After on 503). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

type ArgsFor<C extends ErrorCode> = [keyof ErrorParams<C>] extends [never]
  ? [params?: ErrorParams<C>, options?: WharfErrorOptions]
  : [params: ErrorParams<C>, options?: WharfErrorOptions];

export class WharfError<C extends ErrorCode = ErrorCode> extends Error {
  override readonly name: string = 'WharfError';
  readonly code: C;
  readonly status: number;
  readonly area: ErrorArea;
  readonly details: readonly ErrorDetail[] | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: C, ...args: ArgsFor<C>) {
    const [params, options] = args;
    super(formatErrorMessage(code, (params ?? {}) as ErrorParams<C>), { cause: options?.cause });
    const definition = ERROR_REGISTRY[code];
    this.code = code;
    this.status = definition.status;
    this.area = definition.area;
    this.details = options?.details;
    this.headers = options?.headers ?? {};
  }
}

export function isWharfError(value: unknown): value is WharfError {
  return value instanceof WharfError;
}
