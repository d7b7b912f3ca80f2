/** "Did you mean" suggestions for misspelt property names and values. */
import levenshtein from 'fast-levenshtein';

/** The words of a PascalCase/camelCase name, lower case: `CacheSeconds` -> cache, seconds. */
function words(name: string): string[] {
  return name.split(/(?<=[a-z0-9])(?=[A-Z])|[^A-Za-z0-9]+/).filter((w) => w !== '').map((w) => w.toLowerCase());
}

/** The only candidate holding every word of a two-or-more-word input (`CacheSeconds` -> `CacheDurationSeconds`). */
function holdingAllWords(input: string, candidates: readonly string[]): string | null {
  const wanted = words(input);
  if (wanted.length < 2) return null;
  const hits = candidates.filter((c) => {
    const have = words(c);
    return wanted.every((w) => have.includes(w));
  });
  return hits.length === 1 ? hits[0]! : null;
}

/**
 * The candidate closest to `input`: a case-insensitive match first, else the smallest edit
 * distance within a third of the input's length (at least 2), else the one candidate holding
 * every word of the input. null when nothing is close.
 */
export function closest(input: string, candidates: readonly string[]): string | null {
  const lower = input.toLowerCase();
  const sameIgnoringCase = candidates.find((c) => c.toLowerCase() === lower);
  if (sameIgnoringCase !== undefined) return sameIgnoringCase;
  const limit = Math.max(2, Math.floor(input.length / 3));
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of [...candidates].sort()) {
    const distance = levenshtein.get(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : holdingAllWords(input, candidates);
}
