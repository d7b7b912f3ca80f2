/**
 * Whether an endpoint answers in an environment: its `AllowedEnvironments` and `Enabled`. The
 * checks of a direct call (pipeline/stages.ts), and of each endpoint a Composite's steps call, so
 * an endpoint switched off or limited to other environments is not reached through a Composite.
 */
import type { EndpointModel } from '../contract/model.js';
import { WharfError } from '../errors/wharf-error.js';

type Availability = Pick<EndpointModel, 'allowedEnvironments' | 'enabled'>;

/** 400 ROUTING_ENV_NOT_ALLOWED_FOR_ENDPOINT when the endpoint is limited to other environments; `shown` names the request's. */
export function requireEnvironmentAllowed(model: Availability, environment: string, shown: string): void {
  const allowed = model.allowedEnvironments;
  if (allowed === null) return;
  const lower = environment.toLowerCase();
  if (!allowed.some((name) => name.toLowerCase() === lower)) throw new WharfError('ROUTING_ENV_NOT_ALLOWED_FOR_ENDPOINT', { env: shown });
}

/** 503 ROUTING_ENDPOINT_DISABLED with Retry-After when the endpoint has `Enabled` false. */
export function requireEnabled(model: Availability, retryAfterSeconds: number): void {
  if (model.enabled) return;
  throw new WharfError('ROUTING_ENDPOINT_DISABLED', undefined, { headers: { 'retry-after': String(retryAfterSeconds) } });
}
