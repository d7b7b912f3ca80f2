/**
 * The protective headers of a page the gateway serves itself (the console, the landing page): its
 * Content-Security-Policy (which should carry `frame-ancestors 'none'`), no MIME sniffing, no
 * Referer to other sites, and no framing for browsers that read only X-Frame-Options.
 */
import type { FastifyReply } from 'fastify';

export function securePage(reply: FastifyReply, policy: string): FastifyReply {
  return reply
    .header('content-security-policy', policy)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY');
}
