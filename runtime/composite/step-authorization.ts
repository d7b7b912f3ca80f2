/**
 * A Composite step calling a Proxy endpoint with Authorization rules goes through those rules as a
 * direct call would: the rule for the step's method must apply to the caller (else 403, before any
 * upstream call of the step), and its ForwardClaims are sent to that step's upstream.
 */
import type { CompositeStep, ProxyEndpoint } from '../contract/model.js';
import { selectRule } from '../auth/rules/select-rule.js';
import type { TokenPrincipal } from '../auth/tokens.js';
import { WharfError } from '../errors/wharf-error.js';
import { claimHeaders } from '../proxy/claim-headers.js';
import type { StepRequestBase } from './step-call.js';

export function stepRequestBase(base: StepRequestBase, target: ProxyEndpoint, step: CompositeStep, principal: TokenPrincipal | null): StepRequestBase {
  if (target.authorization === undefined) return base;
  const rule = principal === null ? null : selectRule(target.authorization, principal, step.method);
  if (rule === null || principal === null) throw new WharfError('AUTH_SCOPE_DENIED', { method: step.method.toUpperCase(), endpoint: target.routePath });
  return { ...base, claimHeaders: claimHeaders(rule, principal.claims) };
}
