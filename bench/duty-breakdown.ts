/**
 * What each per-request duty of the proxy bench's forwarder with the same duties costs
 * (docs/performance.md, "What the duties cost"): the bare forwarder, Wharf as `wharf start` runs it
 * (bench/proxy.ts settings), bench/duty-forwarder.ts with every duty and with each duty left out
 * (DUTY_OFF), and bench/lean-duty-forwarder.ts (every duty, written for the least CPU). Each in its
 * own process; 32 connections on the small proxied GET; interleaved rounds, CPU per request of each
 * server process (median of the rounds) beside req/s (best round).
 *
 *   npm run bench -- duties      (BENCH_DURATION seconds per round, default 5; BENCH_ROUNDS, default 3)
 */
import type { LoadResult } from './autocannon.js';
import { forwarderProcessWith, line, measureServer, startUpstream, wharfProcess, withServers } from './proxy.js';
import type { ChildServer } from './proxy.js';

const SECONDS = Number(process.env['BENCH_DURATION'] ?? 5);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const DUTIES = ['auth', 'ratelimit', 'reqid', 'log', 'headers', 'etag', 'metrics'] as const;

interface Case {
  readonly name: string;
  readonly server: ChildServer;
  readonly url: string;
  readonly headers: Record<string, string>;
}

type Measured = LoadResult & { cpuUsPerRequest: number };

const middle = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function runDutyBreakdown(): Promise<void> {
  await withServers(async (started) => {
    const upstream = started(await startUpstream());
    const standby = started(await startUpstream());
    const wharf = started(await wharfProcess(upstream.origin, standby.origin));
    const auth = { authorization: `Bearer ${wharf.token}` };
    const bare = started(await forwarderProcessWith('bare-forwarder.ts', [upstream.origin], {}));
    const cases: Case[] = [
      { name: 'bare forwarder', server: bare, url: `${bare.url}/small`, headers: {} },
      { name: 'wharf', server: wharf, url: `${wharf.url}/api/demo/Small`, headers: auth },
    ];
    const duty = async (off: string): Promise<ChildServer> => started(await forwarderProcessWith('duty-forwarder.ts', [upstream.origin, wharf.token], { DUTY_OFF: off }));
    const all = await duty('');
    cases.push({ name: 'duties: all', server: all, url: `${all.url}/small`, headers: auth });
    for (const left of DUTIES) {
      const server = await duty(left);
      cases.push({ name: `duties: all but ${left}`, server, url: `${server.url}/small`, headers: auth });
    }
    const none = await duty(DUTIES.join(','));
    cases.push({ name: 'duties: none', server: none, url: `${none.url}/small`, headers: auth });
    const lean = started(await forwarderProcessWith('lean-duty-forwarder.ts', [upstream.origin, wharf.token], {}));
    cases.push({ name: 'lean: all duties', server: lean, url: `${lean.url}/small`, headers: auth });

    const results = new Map<string, Measured[]>();
    console.log(`32 connections, ${SECONDS} s per round, ${ROUNDS} interleaved rounds; wharf: compiled runtime in its own process, token auth + rate limiting on, cache off, logging info; forwarders: their own processes`);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const c of cases) {
        const result = await measureServer(c.url, c.headers, c.server.pid, SECONDS);
        if (result.errors > 0) throw new Error(`${c.name}: ${result.errors} errors`);
        console.log(line(`${c.name} #${round}`, result));
        results.set(c.name, [...(results.get(c.name) ?? []), result]);
      }
    }
    const cpu = (name: string) => middle(results.get(name)!.map((r) => r.cpuUsPerRequest));
    const rps = (name: string) => Math.max(...results.get(name)!.map((r) => r.rps));
    const bareCpu = cpu('bare forwarder');
    console.log('\ncase                               cpu µs/req (median)  req/s (best)  vs bare: cpu  req/s');
    for (const c of cases) console.log(`${c.name.padEnd(34)} ${cpu(c.name).toFixed(1).padStart(10)} ${rps(c.name).toFixed(0).padStart(14)} ${(cpu(c.name) / bareCpu).toFixed(2).padStart(12)}x ${(rps(c.name) / rps('bare forwarder')).toFixed(2).padStart(6)}x`);
    console.log('\nwhat each duty costs (all duties minus all but that one, cpu µs/req):');
    for (const left of DUTIES) console.log(`  ${left.padEnd(10)} ${(cpu('duties: all') - cpu(`duties: all but ${left}`)).toFixed(1).padStart(6)}`);
    console.log(`  together   ${(cpu('duties: all') - cpu('duties: none')).toFixed(1).padStart(6)} (all against none)`);
  });
}


