/**
 * A real, throw-away RabbitMQ for tests, started on loopback as dependencies.md §6 describes
 * (RABBITMQ_NODE_IP_ADDRESS=127.0.0.1, ERL_EPMD_ADDRESS=127.0.0.1, inet_dist_use_interface
 * 127.0.0.1, `rabbitmqctl await_startup`, `rabbitmqctl shutdown`). Two additions keep several
 * test runs on one machine apart: a free AMQP port, its own node name and its own data/log dirs.
 *
 *   const rabbit = await startRabbit();  ...  await rabbit.restart();  ...  await rabbit.stop();
 *
 * Needs /usr/sbin/rabbitmq-server (Debian package `rabbitmq-server`, installed by .ci/run). As
 * root the Debian wrapper runs the broker as user `rabbitmq`, so the data dir is chowned to it.
 */
import { execFile as execFileCb, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const execFile = promisify(execFileCb);

export const RABBITMQ_SERVER = process.env['RABBITMQ_SERVER'] ?? '/usr/sbin/rabbitmq-server';
export const rabbitAvailable = existsSync(RABBITMQ_SERVER);

export interface TestRabbit {
  readonly url: string;
  readonly port: number;
  /** Stop the broker (data kept) and start it again on the same port. */
  restart(): Promise<void>;
  /** Stop the broker, keep the data (for "broker down" tests); `start()` brings it back. */
  halt(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** `rabbitmqctl -n <this node> ...args` (bench/sync.ts: a policy); its stdout. */
  ctl(...args: string[]): Promise<string>;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

async function ownedByRabbit(dir: string): Promise<void> {
  if (!isRoot) return;
  await chmod(dir, 0o755);
  const { stdout: uid } = await execFile('id', ['-u', 'rabbitmq']);
  const { stdout: gid } = await execFile('id', ['-g', 'rabbitmq']);
  await chown(dir, Number(uid.trim()), Number(gid.trim()));
}

export interface RabbitOptions {
  /**
   * Erlang VM flags appended to RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS (bench/sync.ts: the scheduler
   * busy-wait flags `+sbwt none +sbwtdcpu none +sbwtdio none`). Default none: the broker's defaults.
   */
  readonly erlArgs?: string;
}

export async function startRabbit(options: RabbitOptions = {}): Promise<TestRabbit> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wharf-rabbit-'));
  await ownedByRabbit(dir);
  const port = await freePort();
  const distPort = await freePort();
  const node = `wharf${port}@localhost`;
  const env = {
    ...process.env,
    RABBITMQ_NODENAME: node,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    ERL_EPMD_ADDRESS: '127.0.0.1',
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: `-kernel inet_dist_use_interface {127,0,0,1}${options.erlArgs ? ` ${options.erlArgs}` : ''}`,
    RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: dir,
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
  };
  let child: ChildProcess | null = null;
  const ctl = (...args: string[]) => execFile('rabbitmqctl', ['-n', node, ...args], { env, timeout: 60_000 });

  async function start(): Promise<void> {
    const proc = spawn(RABBITMQ_SERVER, [], { env, stdio: 'ignore', detached: true });
    child = proc;
    proc.unref();
    // await_startup fails at once while the node has not registered with epmd yet: retry.
    const deadline = Date.now() + 90_000;
    for (;;) {
      try {
        await ctl('await_startup');
        return;
      } catch (error) {
        if (Date.now() > deadline || proc.exitCode !== null) {
          await halt();
          throw new Error(`rabbitmq-server did not start: ${(error as Error).message}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }
  async function halt(): Promise<void> {
    await ctl('shutdown').catch(() => undefined);
    const proc = child;
    child = null;
    if (proc && proc.exitCode === null && proc.pid) {
      try {
        process.kill(-proc.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  await start();
  return {
    url: `amqp://guest:guest@127.0.0.1:${port}`,
    port,
    start,
    halt,
    restart: async () => {
      await halt();
      await start();
    },
    stop: async () => {
      await halt();
      await rm(dir, { recursive: true, force: true });
    },
    ctl: async (...args) => (await ctl(...args)).stdout,
  };
}

/** The Erlang VM of the test broker on `port` (started with RABBITMQ_NODE_PORT=<port>): to freeze it (SIGSTOP) or count its CPU. */
export function brokerPid(port: number): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith('beam.smp')) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`RABBITMQ_NODE_PORT=${port}`)) return Number(entry);
    } catch {
      // ended meanwhile
    }
  }
  throw new Error(`no beam.smp for the broker on port ${port}`);
}
