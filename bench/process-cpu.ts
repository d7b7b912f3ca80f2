/**
 * CPU time a server process has used so far, in microseconds (user + system, all its threads):
 * `null` for this process, else a child's pid (Linux /proc). Per-request CPU is the steadier figure
 * on a shared machine, where throughput ratios mostly say who got the cores.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | null = null;

function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticksPerSecond;
}

export function processCpuMicros(pid: number | null): number {
  if (pid === null) {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / clockTicks();
}
