/**
 * A classification of Content-Type header texts (JSON? rewritable?), remembered per text: upstreams
 * send the same few values, so each response costs one map lookup instead of a split, a trim and a
 * lower-casing. At most MAX_REMEMBERED texts are kept (an upstream sending ever new parameters
 * only fills the map up, then is classified afresh each time).
 */
export const MAX_REMEMBERED = 64;

export function memoByContentType(classify: (contentType: string) => boolean): (contentType: string | undefined) => boolean {
  const known = new Map<string, boolean>();
  return (contentType) => {
    const text = contentType ?? '';
    let answer = known.get(text);
    if (answer === undefined) {
      answer = classify(text);
      if (known.size < MAX_REMEMBERED) known.set(text, answer);
    }
    return answer;
  };
}
