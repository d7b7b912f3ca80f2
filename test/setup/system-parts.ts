/**
 * The real parts the tests run (PostgreSQL, Redis, Chromium, RabbitMQ, nginx, HAProxy, and curl for the docs' examples): where they are on this
 * machine, and what to do when one is missing.
 *
 * Search order per part: an explicit env override (WHARF_<PART>), then every PATH directory, then
 * the usual Debian locations (WHARF_PART_DIRS replaces those, colon-separated; `*` globs one path
 * segment, e.g. /usr/lib/postgresql/*\/bin, highest version first).
 *
 * `ensureSystemParts()` (the vitest globalSetup and `npm test`'s pretest step) finds them all;
 * when some are missing and we are root with apt-get it installs them once with apt's own
 * progress on the terminal; otherwise it fails at once with one message naming the exact command.
 * Helpers ask `partPath(name)`, which reads what the setup exported (WHARF_PARTS) or finds it.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';

export type PartName = 'postgres' | 'redis' | 'chromium' | 'rabbitmq' | 'nginx' | 'haproxy' | 'curl';

interface PartSpec {
  readonly title: string;
  /** The executables we look for (the first found wins); for postgres, the dir of initdb is the answer. */
  readonly executables: readonly string[];
  readonly debianDirs: readonly string[];
  readonly aptPackage: string;
  readonly envOverride: string;
}

export const PARTS: Readonly<Record<PartName, PartSpec>> = {
  postgres: {
    title: 'PostgreSQL',
    executables: ['initdb'],
    debianDirs: ['/usr/lib/postgresql/*/bin'],
    aptPackage: 'postgresql',
    envOverride: 'WHARF_PG_BIN',
  },
  redis: {
    title: 'Redis',
    executables: ['redis-server'],
    debianDirs: ['/usr/bin', '/usr/sbin', '/usr/local/bin'],
    aptPackage: 'redis-server',
    envOverride: 'WHARF_REDIS_SERVER',
  },
  chromium: {
    title: 'Chromium',
    executables: ['chromium', 'chromium-browser'],
    debianDirs: ['/usr/bin', '/usr/lib/chromium'],
    aptPackage: 'chromium',
    envOverride: 'WHARF_CHROMIUM',
  },
  rabbitmq: {
    title: 'RabbitMQ',
    executables: ['rabbitmq-server'],
    debianDirs: ['/usr/sbin', '/usr/lib/rabbitmq/bin'],
    aptPackage: 'rabbitmq-server',
    envOverride: 'WHARF_RABBITMQ_SERVER',
  },
  nginx: {
    title: 'nginx',
    executables: ['nginx'],
    debianDirs: ['/usr/sbin', '/usr/bin', '/usr/local/sbin'],
    aptPackage: 'nginx',
    envOverride: 'WHARF_NGINX',
  },
  haproxy: {
    title: 'HAProxy',
    executables: ['haproxy'],
    debianDirs: ['/usr/sbin', '/usr/bin', '/usr/local/sbin'],
    aptPackage: 'haproxy',
    envOverride: 'WHARF_HAPROXY',
  },
  curl: {
    title: 'curl',
    executables: ['curl'],
    debianDirs: ['/usr/bin', '/usr/local/bin'],
    aptPackage: 'curl',
    envOverride: 'WHARF_CURL',
  },
};

export const PART_NAMES = Object.keys(PARTS) as PartName[];

export type FoundParts = Partial<Record<PartName, string>>;

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Expand one `*` segment (highest version first); plain dirs pass through. */
function expandDir(pattern: string): string[] {
  const star = pattern.split('/').indexOf('*');
  if (star < 0) return [pattern];
  const segments = pattern.split('/');
  const parent = segments.slice(0, star).join('/') || '/';
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  names.sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
  return names.flatMap((name) => expandDir([...segments.slice(0, star), name, ...segments.slice(star + 1)].join('/')));
}

export interface SearchEnv {
  readonly PATH?: string | undefined;
  readonly WHARF_PART_DIRS?: string | undefined;
  readonly [key: string]: string | undefined;
}

/** Where `name` is: for postgres the bin dir holding initdb and pg_ctl, else the executable. */
export function findPart(name: PartName, env: SearchEnv = process.env): string | undefined {
  const spec = PARTS[name];
  const override = env[spec.envOverride];
  if (override) return override;
  const pathDirs = (env.PATH ?? '').split(path.delimiter).filter((d) => d !== '');
  const standard = env.WHARF_PART_DIRS !== undefined ? env.WHARF_PART_DIRS.split(':').filter((d) => d !== '') : spec.debianDirs;
  for (const dir of [...pathDirs, ...standard.flatMap(expandDir)]) {
    for (const exe of spec.executables) {
      const file = path.join(dir, exe);
      if (!isExecutable(file)) continue;
      if (name !== 'postgres') return file;
      // PostgreSQL: the real bin dir (PATH may hold a symlink), with pg_ctl beside initdb
      const binDir = path.dirname(realpathSync(file));
      if (isExecutable(path.join(binDir, 'pg_ctl'))) return binDir;
    }
  }
  return undefined;
}

export function findParts(env: SearchEnv = process.env): { found: FoundParts; missing: PartName[] } {
  const found: FoundParts = {};
  const missing: PartName[] = [];
  for (const name of PART_NAMES) {
    const where = findPart(name, env);
    if (where) found[name] = where;
    else missing.push(name);
  }
  return { found, missing };
}

export function installCommand(missing: readonly PartName[]): string {
  return `apt-get install -y --no-install-recommends ${missing.map((m) => PARTS[m].aptPackage).join(' ')}`;
}

/** The one message a user sees when parts are missing and we cannot install them. */
export function missingMessage(missing: readonly PartName[], isRoot: boolean): string {
  const names = missing.map((m) => PARTS[m].title).join(', ');
  const command = installCommand(missing);
  return (
    `Wharf's tests run ${names} for real, and ${missing.length === 1 ? 'it is' : 'they are'} not installed ` +
    `(searched PATH and the usual Debian locations).\n` +
    `Install with:  ${isRoot ? '' : 'sudo '}apt-get update && ${isRoot ? '' : 'sudo '}${command}\n` +
    `then run npm test again.`
  );
}

function canInstall(env: SearchEnv): boolean {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || env['WHARF_TEST_INSTALL'] === '0') return false;
  return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Find every part; install the missing ones when root with apt (output on the terminal);
 * throw one clear Error otherwise. Exports the result as WHARF_PARTS for the test workers.
 */
export function ensureSystemParts(env: SearchEnv = process.env): Required<FoundParts> {
  let { found, missing } = findParts(env);
  if (missing.length > 0 && canInstall(env)) {
    const packages = missing.map((m) => PARTS[m].aptPackage);
    process.stderr.write(`wharf tests: installing ${packages.join(', ')} (once) with apt-get…\n`);
    const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update'], { stdio: 'inherit', env: aptEnv });
    const install =
      update.status === 0
        ? spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { stdio: 'inherit', env: aptEnv })
        : update;
    if (install.status !== 0) throw new Error(`${installCommand(missing)} failed (exit ${install.status}); see its output above`);
    ({ found, missing } = findParts(env));
  }
  if (missing.length > 0) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    throw new Error(missingMessage(missing, isRoot));
  }
  process.env['WHARF_PARTS'] = JSON.stringify(found);
  return found as Required<FoundParts>;
}

/** The path of a part for a test helper; throws (never skips) when it is missing. */
export function partPath(name: PartName): string {
  const exported = process.env['WHARF_PARTS'];
  if (exported) {
    const parts = JSON.parse(exported) as FoundParts;
    const where = parts[name];
    if (where) return where;
  }
  const where = findPart(name);
  if (!where) throw new Error(missingMessage([name], typeof process.getuid === 'function' && process.getuid() === 0));
  return where;
}
