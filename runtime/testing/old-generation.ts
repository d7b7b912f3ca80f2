/**
 * For tests: how much a piece of work makes V8 promote to the old generation (what outlives young
 * collections, to be freed only by a full one). The work's long-lived state is moved to the old
 * generation first (two full collections), then `round` runs `rounds` times with a young collection
 * after each; the old generation's growth is the answer, in KB. A full collection that V8 starts on
 * its own meanwhile would hide the growth: then it is measured again (v8.GCProfiler tells).
 */
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

const oldSpaceBytes = (): number => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;

function measureOnce(round: (index: number) => void, rounds: number, end: () => void): number {
  gc();
  gc();
  const before = oldSpaceBytes();
  for (let index = 0; index < rounds; index++) {
    round(index);
    gc({ type: 'minor' });
  }
  end();
  gc({ type: 'minor' });
  gc({ type: 'minor' });
  return (oldSpaceBytes() - before) / 1024;
}

export function oldGenerationGrowthKb(round: (index: number) => void, options: { rounds?: number; end?: () => void } = {}): number {
  for (let attempt = 1; ; attempt++) {
    const profiler = new v8.GCProfiler();
    profiler.start();
    const kb = measureOnce(round, options.rounds ?? 20, options.end ?? (() => undefined));
    const unforcedFull = profiler.stop().statistics.filter((entry) => entry.gcType !== 'Scavenge').length - 2; // less our two
    if (unforcedFull === 0 || attempt === 3) return kb;
  }
}
