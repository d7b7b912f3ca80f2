/** The naming rules of the spec (Namespaces rules 2 to 4), shared by the namespace rules. */

export const SEGMENT = /^[A-Za-z][A-Za-z0-9_]*$/;
export const NAMESPACE_MAX_LENGTH = 50;
export const RESERVED_NAMES = ['api', 'docs', 'openapi', 'health', 'admin', 'system', 'composite', 'webhook', 'files'] as const;

export function isReserved(name: string): boolean {
  return (RESERVED_NAMES as readonly string[]).includes(name.toLowerCase());
}

export const segmentMessage = (segment: string) =>
  `Namespace segment '${segment}' must start with a letter and contain only letters, numbers, and underscores`;

export const reservedMessage = (name: string) => `'${name}' is a reserved namespace name`;
