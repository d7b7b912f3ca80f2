/**
 * Client errors of the SQL read path (400/404) with the exact response text. The fastify adapter
 * turns them into the registry's SQL_BAD_REQUEST / SQL_NOT_FOUND (see fastify-handler.ts).
 * Server faults are never SqlRequestError: they go to the runtime as a plain Error (500 + traceId).
 */
export class SqlRequestError extends Error {
  override readonly name = 'SqlRequestError';
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}
