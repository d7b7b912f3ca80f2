/**
 * ForwardClaims of a Proxy endpoint's Authorization rule: upstream header -> claim name. The
 * header carries the caller's claim (a string, number or boolean; an array of strings joined by
 * spaces), never the token itself. The client's own value of such a header is always dropped, so a
 * caller cannot forge it; a claim the token lacks (or one with control characters) sends no header.
 */
import type { AuthorizationRule } from '../contract/model.js';

const SAFE_VALUE = /^[\x20-\x7e\x80-\uffff]*$/u;

function headerValue(claim: unknown): string | null {
  let text: string | null = null;
  if (typeof claim === 'string') text = claim;
  else if (typeof claim === 'number' || typeof claim === 'boolean') text = String(claim);
  else if (Array.isArray(claim) && claim.every((item) => typeof item === 'string')) text = claim.join(' ');
  return text !== null && SAFE_VALUE.test(text) ? text : null;
}

/** Lower-case header -> value, or null: drop the client's and send none. */
export function claimHeaders(rule: AuthorizationRule | null, claims: Readonly<Record<string, unknown>>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  if (rule === null) return out;
  for (const [header, claim] of Object.entries(rule.forwardClaims)) {
    out[header.toLowerCase()] = Object.hasOwn(claims, claim) ? headerValue(claims[claim]) : null;
  }
  return out;
}
