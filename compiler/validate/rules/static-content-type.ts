/**
 * A Static `ContentType` set in entity.json must not contradict the content file: a binary
 * format (PNG, JPEG, GIF, WebP, icon, PDF) needs the file to start with that format's signature,
 * and a text type needs a file without NUL bytes. (JSON served as `image/png` would reach clients
 * as a broken image.) Reads the content file; a missing or escaping file is static-content's.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { StaticConfig } from '../../model/config.js';
import { containedPath } from '../../../runtime/contract/contained-path.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

/** Leading bytes of the binary formats a Static endpoint commonly serves. */
const SIGNATURES: Readonly<Record<string, { readonly label: string; readonly test: (head: Buffer) => boolean }>> = {
  'image/png': { label: 'PNG image', test: (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  'image/jpeg': { label: 'JPEG image', test: (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff },
  'image/gif': { label: 'GIF image', test: (h) => h.subarray(0, 4).toString('latin1') === 'GIF8' },
  'image/webp': { label: 'WebP image', test: (h) => h.subarray(0, 4).toString('latin1') === 'RIFF' && h.subarray(8, 12).toString('latin1') === 'WEBP' },
  'image/x-icon': { label: 'icon', test: (h) => h.subarray(0, 4).equals(Buffer.from([0, 0, 1, 0])) },
  'application/pdf': { label: 'PDF document', test: (h) => h.subarray(0, 5).toString('latin1') === '%PDF-' },
};

const isText = (type: string) =>
  type.startsWith('text/') || /^application\/(?:[a-z0-9.+-]+\+)?(?:json|xml)$/.test(type) || type === 'image/svg+xml';

function head(file: string): Buffer | null {
  try {
    if (!statSync(file).isFile()) return null;
    return readFileSync(file).subarray(0, 4096);
  } catch {
    return null;
  }
}

export const staticContentTypeRule: EntityRule = {
  name: 'static-content-type',
  scope: 'entity',
  codes: ['static-content-type-mismatch'],
  kinds: ['static'],
  check(ctx) {
    const config = ctx.config as unknown as StaticConfig;
    const configured = config.ContentType?.split(';')[0]?.trim().toLowerCase();
    const relative = containedPath(config.ContentFile);
    if (!configured || relative === null) return [];
    const bytes = head(path.join(path.dirname(ctx.parsed.source.absolutePath), relative));
    if (bytes === null) return [];
    // own entries only: a ContentType of '__proto__' found Object.prototype and ended the build with a TypeError
    const signature = Object.hasOwn(SIGNATURES, configured) ? SIGNATURES[configured] : undefined;
    let problem: string | null = null;
    if (signature && !signature.test(bytes)) problem = `${config.ContentFile} is not a ${signature.label} (it lacks the format's signature)`;
    else if (isText(configured) && bytes.includes(0)) problem = `${config.ContentFile} is binary (it holds NUL bytes), not text`;
    if (problem === null) return [];
    return [
      error(ctx, 'static-content-type-mismatch', '/ContentType', `ContentType '${config.ContentType}' contradicts the content file: ${problem}`, {
        hint: 'Set ContentType to the file\'s real type, or remove it to take the type from the file extension.',
      }),
    ];
  },
};
