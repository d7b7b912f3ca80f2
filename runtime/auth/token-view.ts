/** The spec's Token and audit resources (console JSON, CLI listing) from store rows. */
import { isActive } from './store/token-store.js';
import type { AuditRow, TokenRow } from './store/token-store.js';

export interface TokenView {
  readonly id: number;
  readonly username: string;
  readonly description: string;
  readonly created_at: string;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
  readonly allowed_scopes: string;
  readonly allowed_environments: string;
  readonly is_active: boolean;
}

export interface AuditView {
  readonly operation: string;
  readonly timestamp: string;
  readonly details: string;
  readonly ip_address: string | null;
  readonly user_agent: string | null;
}

/** `YYYY-MM-DD HH:MM:SS` in UTC (the spec's token time format). */
export function formatTokenTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

export function toTokenView(row: TokenRow, now: number): TokenView {
  return {
    id: row.id,
    username: row.username,
    description: row.description,
    created_at: formatTokenTime(row.createdAt),
    expires_at: row.expiresAt === null ? null : formatTokenTime(row.expiresAt),
    revoked_at: row.revokedAt === null ? null : formatTokenTime(row.revokedAt),
    allowed_scopes: row.allowedScopes,
    allowed_environments: row.allowedEnvironments,
    is_active: isActive(row, now),
  };
}

export function toAuditView(row: AuditRow): AuditView {
  return {
    operation: row.operation,
    timestamp: new Date(row.timestamp).toISOString(),
    details: row.details,
    ip_address: row.ipAddress,
    user_agent: row.userAgent,
  };
}
