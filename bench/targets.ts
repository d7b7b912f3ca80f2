/**
 * The speed targets (issue 30), recorded by each bench where it measures them and printed together
 * at the end of `npm run bench` (bench/run.ts): one line per target with the figure, the target
 * and whether this run met it. Settings stay in each bench's own output above.
 */
export interface TargetResult {
  readonly bench: string;
  readonly what: string;
  readonly figure: string;
  readonly target: string;
  readonly met: boolean;
}

const results: TargetResult[] = [];

export function recordTarget(result: TargetResult): void {
  results.push(result);
}

/** The summary lines (none when no bench of this run has a target). */
export function targetSummary(): string[] {
  if (results.length === 0) return [];
  const width = Math.max(...results.map((r) => `${r.bench}: ${r.what}`.length));
  return [
    'targets (issue 30), this run:',
    ...results.map((r) => `  ${`${r.bench}: ${r.what}`.padEnd(width)}  ${r.figure.padEnd(22)} target ${r.target.padEnd(12)} ${r.met ? 'met' : 'NOT MET'}`),
  ];
}
