import type { EndpointKind } from '../../runtime/contract/index.js';

/** How messages name endpoint kinds (the spec's type names). */
export const KIND_LABEL: Readonly<Record<EndpointKind, string>> = {
  sql: 'SQL',
  proxy: 'Proxy',
  composite: 'Composite',
  static: 'Static',
  webhook: 'Webhook',
  files: 'Files',
};
