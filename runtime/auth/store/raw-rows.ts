/** Column-named rows as both SQL stores return them, mapped to the store's camelCase rows. */
import type { AuditRow, TokenRow } from './token-store.js';

export interface RawToken {
  id: number;
  username: string;
  description: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  allowed_scopes: string;
  allowed_environments: string;
  lookup_id: string;
  token_hash: string;
}

export interface RawAudit {
  id: number;
  token_id: number;
  operation: AuditRow['operation'];
  timestamp: number;
  details: string;
  ip_address: string | null;
  user_agent: string | null;
}

export function tokenFromRaw(raw: RawToken): TokenRow {
  return {
    id: Number(raw.id),
    username: raw.username,
    description: raw.description,
    createdAt: Number(raw.created_at),
    expiresAt: raw.expires_at === null ? null : Number(raw.expires_at),
    revokedAt: raw.revoked_at === null ? null : Number(raw.revoked_at),
    allowedScopes: raw.allowed_scopes,
    allowedEnvironments: raw.allowed_environments,
    lookupId: raw.lookup_id,
    tokenHash: raw.token_hash,
  };
}

export function auditFromRaw(raw: RawAudit): AuditRow {
  return {
    id: Number(raw.id),
    tokenId: Number(raw.token_id),
    operation: raw.operation,
    timestamp: Number(raw.timestamp),
    details: raw.details,
    ipAddress: raw.ip_address,
    userAgent: raw.user_agent,
  };
}
