/**
 * Rewrites absolute upstream URLs in JSON and XML response bodies (OData `@odata.nextLink`,
 * `@odata.id`, XML `xml:base`) to the gateway's route, so clients follow links through Wharf.
 * Works on a stream without buffering it: each chunk is searched together with the tail of the
 * previous one (shorter than the longest pattern), so a URL split across chunks is still found.
 * Bytes are handled as latin1 (one char per byte), so multi-byte UTF-8 text is never damaged.
 */
import { Transform } from 'node:stream';
import { memoByText } from '../lifecycle/text-memo.js';

export interface UrlRewrite {
  readonly from: string;
  readonly to: string;
  /** `from` as latin1 bytes, made once (a string needle is encoded again on every search). */
  readonly fromBytes?: Buffer;
}

const memo = new WeakMap<readonly string[], Map<string, UrlRewrite[]>>();

/** rewritesFor, remembered per (bases array of a loaded endpoint, gateway base); bounded per endpoint. */
export function cachedRewritesFor(upstreamBases: readonly string[], gatewayBase: string): UrlRewrite[] {
  let byBase = memo.get(upstreamBases);
  if (!byBase) memo.set(upstreamBases, (byBase = new Map()));
  let rewrites = byBase.get(gatewayBase);
  if (!rewrites) {
    rewrites = rewritesFor(upstreamBases, gatewayBase);
    if (byBase.size < 100) byBase.set(gatewayBase, rewrites);
  }
  return rewrites;
}

/** `http://up:9100/orders` -> `http://gw/api/demo/Orders`, plus the JSON `\/`-escaped spelling. */
export function rewritesFor(upstreamBases: readonly string[], gatewayBase: string): UrlRewrite[] {
  const rewrites: UrlRewrite[] = [];
  const seen = new Set<string>();
  for (const base of upstreamBases) {
    const url = new URL(base);
    const from = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    if (seen.has(from)) continue;
    seen.add(from);
    const escaped = from.replaceAll('/', '\\/');
    rewrites.push({ from, to: gatewayBase, fromBytes: Buffer.from(from, 'latin1') });
    rewrites.push({ from: escaped, to: gatewayBase.replaceAll('/', '\\/'), fromBytes: Buffer.from(escaped, 'latin1') });
  }
  // longest first: a base that is a prefix of another must not win
  return rewrites.sort((a, b) => b.from.length - a.from.length);
}

/** true when the response body is text Wharf rewrites (JSON or XML). */
const rewritableMedia = memoByText((contentType) => {
  const media = contentType.split(';')[0]!.trim().toLowerCase();
  return media === 'application/json' || media.endsWith('+json') || media === 'application/xml' || media === 'text/xml' || media.endsWith('+xml');
}, 64);

/** JSON or XML (remembered per header text: upstreams send the same few). */
export function isRewritable(contentType: string | undefined): boolean {
  return rewritableMedia(contentType ?? '');
}

function replaceAll(text: string, rewrites: readonly UrlRewrite[]): string {
  let out = text;
  for (const { from, to } of rewrites) if (out.includes(from)) out = out.split(from).join(to);
  return out;
}

export function rewriteText(text: string, rewrites: readonly UrlRewrite[]): string {
  return replaceAll(text, rewrites);
}

/** true when the bytes contain one of the patterns (native search, no string conversion). */
export function containsAny(bytes: Buffer, rewrites: readonly UrlRewrite[]): boolean {
  for (const rewrite of rewrites) if (rewrite.fromBytes ? bytes.includes(rewrite.fromBytes) : bytes.includes(rewrite.from, 0, 'latin1')) return true;
  return false;
}

export function urlRewriteStream(rewrites: readonly UrlRewrite[]): Transform {
  const keep = Math.max(0, ...rewrites.map((r) => r.from.length)) - 1;
  const fromLatin1 = rewrites.map((r) => ({ from: r.from, to: Buffer.from(r.to, 'utf8').toString('latin1') }));
  let carry: Buffer = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      // common case: no pattern in the chunk nor across the seam with the carried tail: pass the
      // bytes on without copying or converting them
      if (chunk.length > keep && !containsAny(chunk, rewrites)) {
        const seam = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, keep)]) : null;
        if (!seam || !containsAny(seam, rewrites)) {
          if (carry.length > 0) this.push(carry);
          carry = chunk.subarray(chunk.length - keep);
          return callback(null, chunk.subarray(0, chunk.length - keep));
        }
      }
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      const text = replaceAll(bytes.toString('latin1'), fromLatin1);
      // hold back a tail that could be the start of a pattern; never cut inside a replacement
      let cut = Math.max(0, text.length - keep);
      for (const { to } of fromLatin1) {
        const at = text.lastIndexOf(to);
        if (at >= 0 && at < cut && at + to.length > cut) cut = at + to.length;
      }
      carry = Buffer.from(text.slice(cut), 'latin1');
      callback(null, Buffer.from(text.slice(0, cut), 'latin1'));
    },
    flush(callback) {
      callback(null, carry);
    },
  });
}
