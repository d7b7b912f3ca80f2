/**
 * Token routes (spec "Token"; docs/console-api.md):
 *   GET    /tokens[?include_revoked=true]  array of tokens
 *   POST   /tokens                         201 {ok, token:{token, username, expires_at}}; 409 duplicate username
 *   PUT    /tokens/{id}                    {ok:true}; 404 unknown; 409 narrowing the last full-access token
 *   DELETE /tokens/{id}                    {ok:true} (revoke); 404 unknown or already revoked
 *   POST   /tokens/{id}/rotate             {ok, token:{id, token, username}}: the old token revoked, a new one
 *                                           (new id, same username and rights) created; 404 unknown; 400 revoked
 *   POST   /tokens/{id}/unarchive          {ok:true, is_active}; 404 when unknown or not revoked; 409 when
 *                                           another active token has the username (a rotated token's successor)
 *   GET    /tokens/{id}/audit              array of audit entries, newest first
 * Revoke and rotate reach every instance at once through the revocation bus (Redis).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UsernameTakenError } from '../auth/store/token-store.js';
import type { AuditContext } from '../auth/store/token-store.js';
import { toAuditView, toTokenView } from '../auth/token-view.js';
import { unknownEnvironments } from '../auth/scopes.js';
import { TokenConflictError, TokenInputError } from '../auth/tokens.js';
import type { TokenService, UpdateTokenInput } from '../auth/tokens.js';
import { badRequest, conflict, notFound, objectBody } from './console-errors.js';
import type { ConsoleEvents } from './console-events.js';

export interface TokenRouteOptions {
  readonly tokens: TokenService;
  readonly events: ConsoleEvents;
  /** The environments the server answers for now (Environment:AllowedEnvironments, else the configured ones). */
  readonly environments: () => readonly string[];
}

type Body = Record<string, unknown>;

function idOf(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id;
  if (!/^\d{1,15}$/.test(raw)) throw notFound(`Token ${raw} not found`);
  return Number(raw);
}

function optionalText(body: Body, field: string): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`, field);
  return value;
}

/** `read,write` or ["read","write"] -> `read,write`. */
function optionalList(body: Body, field: string): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(',');
  if (typeof value !== 'string') throw badRequest(`${field} must be a comma-separated string or an array of strings`, field);
  return value;
}

/** allowed_environments naming an environment this server does not have is a 400 (a typo would grant nothing, silently). */
function knownEnvironments(list: string | undefined, known: readonly string[]): string | undefined {
  if (list === undefined) return undefined;
  const unknown = unknownEnvironments(list, known);
  if (unknown.length > 0) {
    throw badRequest(`allowed_environments names unknown environment${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `'${name}'`).join(', ')} (known: ${known.join(', ') || 'none'})`, 'allowed_environments');
  }
  return list;
}

function auditContext(request: FastifyRequest): AuditContext {
  const agent = request.headers['user-agent'];
  return { ipAddress: request.wharfConsole?.clientIp ?? request.ip, userAgent: typeof agent === 'string' ? agent.slice(0, 300) : null };
}

function inputError(error: unknown): never {
  if (error instanceof TokenInputError) throw badRequest(error.message, /^(\w+)/.exec(error.message)?.[1]);
  if (error instanceof TokenConflictError) throw conflict(error.message);
  throw error;
}

export function tokenRoutes(app: FastifyInstance, options: TokenRouteOptions): void {
  const { tokens, events } = options;

  app.get('/tokens', async (request) => {
    const include = (request.query as Record<string, string | undefined>)['include_revoked'] === 'true';
    const now = Date.now();
    return (await tokens.list(include)).map((row) => toTokenView(row, now));
  });

  app.post('/tokens', async (request, reply) => {
    const body = objectBody(request);
    const username = optionalText(body, 'username');
    if (username === undefined || username.trim() === '') throw badRequest('username is required', 'username');
    const days = body['expires_in_days'];
    if (days !== undefined && days !== null && (typeof days !== 'number' || !Number.isInteger(days))) {
      throw badRequest('expires_in_days must be a whole number from 1 to 36500', 'expires_in_days');
    }
    try {
      const description = optionalText(body, 'description');
      const allowedScopes = optionalList(body, 'allowed_scopes');
      const allowedEnvironments = knownEnvironments(optionalList(body, 'allowed_environments'), options.environments());
      const issued = await tokens.create(
        {
          username,
          ...(description !== undefined ? { description } : {}),
          ...(allowedScopes !== undefined ? { allowedScopes } : {}),
          ...(allowedEnvironments !== undefined ? { allowedEnvironments } : {}),
          expiresInDays: (days as number | null | undefined) ?? null,
        },
        auditContext(request),
      );
      const view = toTokenView(issued.record, Date.now());
      events.emit('token_created', { id: view.id, username: view.username });
      reply.code(201);
      return { ok: true, token: { token: issued.token, username: view.username, expires_at: view.expires_at } };
    } catch (error) {
      if (error instanceof UsernameTakenError) throw conflict(`A token with username '${username.trim()}' already exists`);
      return inputError(error);
    }
  });

  app.put('/tokens/:id', async (request) => {
    const id = idOf(request);
    const body = objectBody(request);
    const input: { -readonly [K in keyof UpdateTokenInput]: UpdateTokenInput[K] } = {};
    const description = optionalText(body, 'description');
    if (description !== undefined) input.description = description;
    const scopes = optionalList(body, 'allowed_scopes');
    if (scopes !== undefined) input.allowedScopes = scopes;
    const environments = knownEnvironments(optionalList(body, 'allowed_environments'), options.environments());
    if (environments !== undefined) input.allowedEnvironments = environments;
    if (body['expires_at'] !== undefined) {
      const raw = body['expires_at'];
      const ms = raw === null ? null : typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : Number.NaN;
      if (ms !== null && Number.isNaN(ms)) throw badRequest('expires_at must be an ISO 8601 date-time or null', 'expires_at');
      input.expiresAt = ms;
    }
    try {
      const row = await tokens.update(id, input, auditContext(request));
      if (!row) throw notFound(`Token ${id} not found`);
      return { ok: true };
    } catch (error) {
      return inputError(error);
    }
  });

  app.delete('/tokens/:id', async (request) => {
    const id = idOf(request);
    const row = await tokens.revoke(id, auditContext(request));
    if (!row) throw notFound(`Token ${id} not found or already revoked`);
    events.emit('token_revoked', { id: row.id, username: row.username });
    return { ok: true };
  });

  app.post('/tokens/:id/rotate', async (request) => {
    const id = idOf(request);
    const existing = await tokens.get(id);
    if (!existing) throw notFound(`Token ${id} not found`);
    if (existing.revokedAt !== null) throw badRequest('Cannot rotate an archived token');
    const issued = await tokens.rotate(id, auditContext(request));
    if (!issued) throw notFound(`Token ${id} not found`);
    events.emit('token_revoked', { id: issued.previous.id, username: issued.previous.username });
    events.emit('token_created', { id: issued.record.id, username: issued.record.username });
    return { ok: true, token: { id: issued.record.id, token: issued.token, username: issued.record.username } };
  });

  app.post('/tokens/:id/unarchive', async (request) => {
    const id = idOf(request);
    let row: Awaited<ReturnType<TokenService['unarchive']>>;
    try {
      row = await tokens.unarchive(id, auditContext(request));
    } catch (error) {
      // a rotated token whose successor is still active: one active token per username
      if (error instanceof UsernameTakenError) throw conflict(`A token with username '${error.username}' is active (revoke it first)`);
      throw error;
    }
    if (!row) throw notFound('Token not found or not archived');
    return { ok: true, is_active: toTokenView(row, Date.now()).is_active };
  });

  app.get('/tokens/:id/audit', async (request) => {
    const id = idOf(request);
    if (!(await tokens.get(id))) throw notFound(`Token ${id} not found`);
    return (await tokens.audit(id, 200)).map(toAuditView);
  });
}
