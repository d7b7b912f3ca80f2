/**
 * A function of a short text, remembered per text for the values a server sees over and over
 * (an upstream's Content-Type, a client's socket address): one map lookup per request instead of
 * splitting, trimming, matching and lower-casing. At most `max` texts are kept; when full the memo
 * starts afresh, so texts that stop coming are forgotten and the memory stays bounded.
 */
export function memoByText<T>(compute: (text: string) => T, max: number): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    let answer = known.get(text);
    if (answer === undefined) {
      answer = compute(text);
      if (known.size >= max) known.clear();
      known.set(text, answer);
    }
    return answer;
  };
}
