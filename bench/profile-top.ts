/** The heaviest functions of a V8 CPU profile by self time (bench/sql-profile.ts, bench/proxy-profile.ts). */
interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}
export interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
}

/** The `top` functions by self samples, as percentages of all samples (idle included). */
export function heaviest(profile: Profile, top = 40): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  for (const id of profile.samples) {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '~/').replace(/^.*\/speed\//, '').replace(/^file:\/\/.*?\/(runtime|bench)\//, '$1/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  const total = profile.samples.length;
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, n]) => `${((100 * n) / total).toFixed(1).padStart(5)}%  ${k}`);
}
