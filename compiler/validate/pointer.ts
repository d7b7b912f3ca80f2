/** JSON pointer helpers shared by schema mapping and rules. */

export function escapeSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `pointer('/CompositeConfig', 'Steps', 0)` -> `/CompositeConfig/Steps/0`. */
export function pointer(base: string, ...segments: (string | number)[]): string {
  return base + segments.map((s) => `/${escapeSegment(s)}`).join('');
}

export function segmentsOf(ptr: string): string[] {
  if (ptr === '') return [];
  return ptr
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Human label for a pointer: `/CompositeConfig/Steps/0/Name` -> `CompositeConfig.Steps[0].Name`. */
export function labelOf(ptr: string): string {
  let out = '';
  for (const seg of segmentsOf(ptr)) {
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out === '' ? 'entity.json' : out;
}
