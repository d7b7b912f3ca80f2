/**
 * Accept negotiation for Static endpoints (RFC 9110 §12.5.1): the most specific media range that
 * matches the endpoint's type decides (`type/subtype` over `type/*` over `*\/*`); its q-value must
 * be above 0. No Accept header, or an empty one, accepts anything.
 */

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [media = '', ...params] = part.split(';');
    const [type = '', subtype = ''] = media.trim().toLowerCase().split('/');
    if (type === '' || subtype === '') continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim().toLowerCase());
      if (name === 'q' && value !== undefined && /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value)) q = Number(value);
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

export function accepts(acceptHeader: string | undefined, contentType: string): boolean {
  if (acceptHeader === undefined || acceptHeader.trim() === '') return true;
  const [type = '', subtype = ''] = (contentType.split(';')[0] ?? '').trim().toLowerCase().split('/');
  let best: { specificity: number; q: number } | null = null;
  for (const range of parseAccept(acceptHeader)) {
    const specificity =
      range.type === type && range.subtype === subtype ? 3 : range.type === type && range.subtype === '*' ? 2 : range.type === '*' && range.subtype === '*' ? 1 : 0;
    if (specificity === 0) continue;
    if (best === null || specificity > best.specificity || (specificity === best.specificity && range.q > best.q)) best = { specificity, q: range.q };
  }
  return best !== null && best.q > 0;
}
