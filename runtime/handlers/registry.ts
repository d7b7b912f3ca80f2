/**
 * Handlers by endpoint kind. Every kind starts with the 501 "not implemented" handler; each area
 * (sql, proxy, ...) replaces its entry, either through buildServer({ handlers }) or register().
 */
import { ENDPOINT_KINDS } from '../contract/index.js';
import type { EndpointKind } from '../contract/index.js';
import { WharfError } from '../errors/wharf-error.js';
import type { EndpointHandler, HandlerContext } from './handler-context.js';

export type HandlerMap = { readonly [K in EndpointKind]: EndpointHandler<K> };

/** How a kind is named in messages. */
export const KIND_DISPLAY_NAMES: Readonly<Record<EndpointKind, string>> = {
  sql: 'SQL',
  proxy: 'Proxy',
  composite: 'Composite',
  static: 'Static',
  webhook: 'Webhook',
  files: 'Files',
};

export function notImplementedHandler<K extends EndpointKind>(kind: K): EndpointHandler<K> {
  return () => {
    throw new WharfError('HANDLER_NOT_IMPLEMENTED', { kind: KIND_DISPLAY_NAMES[kind] });
  };
}

/** Storage type: any kind's handler is assignable to it without a cast. */
type StoredHandler = (context: never) => unknown;

export class HandlerRegistry {
  readonly #handlers = new Map<EndpointKind, StoredHandler>();

  constructor(overrides: Partial<HandlerMap> = {}) {
    for (const kind of ENDPOINT_KINDS) {
      const handler: StoredHandler = overrides[kind] ?? notImplementedHandler(kind);
      this.#handlers.set(kind, handler);
    }
  }

  register<K extends EndpointKind>(kind: K, handler: EndpointHandler<K>): void {
    this.#handlers.set(kind, handler);
  }

  get<K extends EndpointKind>(kind: K): EndpointHandler<K> {
    return this.#handlers.get(kind) as unknown as EndpointHandler<K>;
  }

  /** Runs the handler registered for the endpoint's kind. */
  dispatch(context: HandlerContext): unknown {
    const handler = this.#handlers.get(context.endpoint.kind) as unknown as EndpointHandler;
    return handler(context);
  }
}
