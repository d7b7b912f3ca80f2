/** Test helper: handlers for every kind that answer with what the pipeline resolved. */
import type { EndpointKind } from '../contract/index.js';
import type { HandlerContext } from '../handlers/handler-context.js';
import type { HandlerMap } from '../handlers/registry.js';

export function echo<K extends EndpointKind>(context: HandlerContext<K>): unknown {
  return {
    endpoint: context.endpoint.id,
    target: context.target,
    env: context.environment.name,
    method: context.method,
    body: context.request.body ?? null,
  };
}

export const ECHO_HANDLERS: HandlerMap = {
  sql: echo,
  proxy: echo,
  composite: echo,
  static: echo,
  webhook: echo,
  files: echo,
};
