/** "Did you mean" suggestions for misspelt property names and values. */
import levenshtein from 'fast-levenshtein';

/**
 * The candidate closest to `input`: a case-insensitive match first, else the smallest edit
 * distance within a third of the input's length (at least 2). null when nothing is close.
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
  return bestDistance <= limit ? best : null;
}
