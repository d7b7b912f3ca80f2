/** Diagnostics that leave an endpoint out instead of failing the build (errors in `wharf check`). */
export const SKIP_CODES: ReadonlySet<string> = new Set(['namespace-reserved', 'endpoint-name-reserved']);
