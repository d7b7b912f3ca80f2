/**
 * CPU time a server process has used so far, in microseconds (user + system, all its threads):
 * `null` for this process, else a child's pid (Linux /proc). Per-request CPU is the steadier figure
 * on a shared machine, where throughput ratios mostly say who got the cores.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

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

function statFields(text: string): string[] {
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/**
 * CPU time of every process named `command` (e.g. `postgres`: the server and its backends), in
 * microseconds: their own user + system time plus that of their exited children.
 */
export function commandCpuMicros(command: string): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== command) continue;
    const fields = statFields(stat);
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return (ticks * 1_000_000) / clockTicks();
}

/** The machine's idle and total CPU time so far, in clock ticks (all cores; /proc/stat). */
export function machineTicks(): { idle: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  return { idle, total: cpu.reduce((a, b) => a + b, 0) };
}

/**
 * CPU time of a process and every process below it (a Wharf primary and its workers, Server:Workers),
 * in microseconds: user + system of each live one.
 */
export function processTreeCpuMicros(pid: number): number {
  const rows: { pid: number; ppid: number; ticks: number }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = statFields(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      rows.push({ pid: Number(entry), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // ended meanwhile
    }
  }
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of rows) {
      if (!tree.has(row.pid) && tree.has(row.ppid)) {
        tree.add(row.pid);
        grew = true;
      }
    }
  }
  const ticks = rows.filter((row) => tree.has(row.pid)).reduce((sum, row) => sum + row.ticks, 0);
  return (ticks * 1_000_000) / clockTicks();
}
