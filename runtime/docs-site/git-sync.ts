/**
 * Git sync: keeps the docs folder (RootPath) in step with a folder (`Git:Root`) of a Git
 * repository. Each sync fetches the newest commit into a private checkout (a temp folder, shallow)
 * and mirrors `Git:Root` into RootPath, writing only files whose bytes differ and removing files
 * the repository no longer has. The caller then rebuilds exactly as after a file change, so
 * `/api/build-version` moves only when the content changed. A failed fetch leaves RootPath (and
 * so the served site) as it was and is reported through `log`.
 * Credentials go to git as an `http.extraHeader` in the child's environment (GIT_CONFIG_*), never
 * on the command line, in the URL or in the checkout's config; messages are masked before logging.
 * git runs with an allow-listed environment (gitEnvironment), the operator's values (Url, Branch)
 * after `--end-of-options`; a value starting with `-` is refused (here and at settings load).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, readdir, readFile, realpath, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { Cron } from 'croner';
import { gitArgumentProblem } from '../contract/setting-value.js';
import type { GitSettings } from './git-settings.js';

export interface GitSyncResult {
  readonly ok: boolean;
  /** True when RootPath changed (files written or removed). */
  readonly changed: boolean;
  readonly commit: string | null;
  readonly error: string | null;
}

export type GitSyncLog = (level: 'info' | 'error', message: string) => void;

export interface DocsGitSync {
  /** Fetch and mirror now (runs after any sync in progress). */
  syncNow(): Promise<GitSyncResult>;
  /** Run on the `Git:Cron` schedule; `onChange` after each sync that changed RootPath. */
  start(onChange: () => void | Promise<unknown>): void;
  stop(): Promise<void>;
}

const GIT_TIMEOUT_MS = 120_000;

/**
 * Variables git may see from the server's environment: where programs are, the home folder (the
 * user's ~/.gitconfig, ~/.ssh and an ssh agent), the locale, temp folders, proxies and CA files,
 * and what Windows needs to start a program. Nothing else: an inherited GIT_DIR, GIT_WORK_TREE,
 * GIT_CONFIG_*, GIT_SSH_COMMAND, GIT_EXEC_PATH or GIT_TRACE* would point git at another
 * repository, rewrite the URL or run a command.
 */
const GIT_INHERITED = /^(PATH|HOME|USER|LOGNAME|LANG|LANGUAGE|LC_[A-Z_]+|TZ|TMPDIR|TEMP|TMP|SSH_AUTH_SOCK|(HTTPS?|ALL|NO)_PROXY|SSL_CERT_(FILE|DIR)|SYSTEMROOT|SYSTEMDRIVE|WINDIR|COMSPEC|PATHEXT|USERPROFILE|HOMEDRIVE|HOMEPATH|APPDATA|LOCALAPPDATA|PROGRAMDATA)$/i;

/** Transports of the documented `Git:Url` forms (https, http, ssh, file and a local path); `ext::` and others refused. */
const GIT_PROTOCOLS = 'https:http:ssh:file';

function gitEnvironment(settings: Pick<GitSettings, 'username' | 'password'>, inherited: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(inherited)) if (value !== undefined && GIT_INHERITED.test(key)) env[key] = value;
  // GIT_CONFIG_NOSYSTEM: the machine's /etc/gitconfig (a base image's `url.*.insteadOf`, `core.sshCommand`,
  // `core.hooksPath`) is not ours to follow; the server user's own ~/.gitconfig still applies (its
  // credential helper, ssh command or proxy for this repository), so GIT_CONFIG_GLOBAL is left alone
  Object.assign(env, { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo', GIT_ALLOW_PROTOCOL: GIT_PROTOCOLS, GIT_CONFIG_NOSYSTEM: '1' });
  if (settings.username !== null || settings.password !== null) {
    const basic = Buffer.from(`${settings.username ?? ''}:${settings.password ?? ''}`).toString('base64');
    env['GIT_CONFIG_COUNT'] = '1';
    env['GIT_CONFIG_KEY_0'] = 'http.extraHeader';
    env['GIT_CONFIG_VALUE_0'] = `Authorization: Basic ${basic}`;
  }
  return env;
}

/** Hide the password and any `user:secret@` in URLs. */
export function maskSecrets(text: string, settings: Pick<GitSettings, 'password'>): string {
  let out = text.replace(/(\/\/[^/:@\s]+):[^@/\s]+@/g, '$1:***@');
  if (settings.password) out = out.split(settings.password).join('***');
  return out;
}

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) out.push(relative(root, path));
    }
  };
  await walk(root);
  return out.sort();
}

async function readOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}

/**
 * The real path of `root` inside the checkout `repo`, or null when it is missing, not a folder,
 * or leads out of the checkout (`..`, or a symbolic link committed to the repository: its files
 * would be the server's own, published as docs).
 */
async function folderInside(repo: string, root: string): Promise<string | null> {
  const [inside, real] = await Promise.all([realpath(repo), realpath(join(repo, root)).catch(() => null)]);
  if (real === null || (real !== inside && !real.startsWith(inside + sep))) return null;
  return (await stat(real)).isDirectory() ? real : null;
}

/** Make `target` hold exactly the files of `source`; true when anything changed. */
export async function mirrorFolder(source: string, target: string): Promise<boolean> {
  await mkdir(target, { recursive: true });
  const wanted = await listFiles(source);
  const present = await listFiles(target);
  let changed = false;
  for (const file of wanted) {
    const bytes = await readFile(join(source, file));
    const old = await readOrNull(join(target, file));
    if (old !== null && old.equals(bytes)) continue;
    await mkdir(dirname(join(target, file)), { recursive: true });
    await writeFile(join(target, file), bytes);
    changed = true;
  }
  const keep = new Set(wanted);
  for (const file of present) {
    if (keep.has(file)) continue;
    await rm(join(target, file), { force: true });
    changed = true;
    for (let dir = dirname(join(target, file)); dir.startsWith(target) && dir !== target; dir = dirname(dir)) {
      if ((await readdir(dir)).length > 0) break;
      await rmdir(dir);
    }
  }
  return changed;
}

export function createGitSync(settings: GitSettings, targetDir: string, log: GitSyncLog): DocsGitSync {
  if (!settings.url) throw new Error('Git:Url is not set');
  for (const [key, value] of [['Url', settings.url], ['Branch', settings.branch]] as const) {
    const wrong = value === null ? null : gitArgumentProblem(value);
    if (wrong !== null) throw new Error(`Git:${key} ${wrong}`);
  }
  const url = settings.url;
  const env = gitEnvironment(settings);
  new Cron(settings.cron, { paused: true }).stop(); // throws now on a pattern croner cannot read
  let stopJob = (): void => undefined;
  let checkout: string | null = null;
  let queue: Promise<GitSyncResult> = Promise.resolve({ ok: true, changed: false, commit: null, error: null });

  const git = (args: readonly string[], cwd?: string): Promise<string> =>
    new Promise((resolveRun, reject) => {
      execFile('git', [...args], { env, cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error) reject(new Error(maskSecrets(`git ${args[0]} failed: ${String(stderr || error.message).trim()}`, settings)));
        else resolveRun(String(stdout).trim());
      });
    });

  const once = async (): Promise<GitSyncResult> => {
    try {
      checkout ??= await mkdtemp(join(tmpdir(), 'wharf-docs-git-'));
      const repo = join(checkout, 'repo');
      const cloned = await stat(join(repo, '.git')).then(() => true, () => false);
      const branch = settings.branch ? [`--branch=${settings.branch}`] : [];
      if (!cloned) {
        await git(['clone', '--quiet', '--depth', '1', '--no-tags', ...branch, '--end-of-options', url, repo]);
      } else {
        await git(['fetch', '--quiet', '--depth', '1', '--no-tags', '--end-of-options', 'origin', settings.branch ?? 'HEAD'], repo);
        await git(['reset', '--quiet', '--hard', 'FETCH_HEAD', '--'], repo);
      }
      const commit = await git(['rev-parse', '--verify', 'HEAD^{commit}'], repo);
      const source = await folderInside(repo, settings.root);
      if (source === null) throw new Error(`Git:Root ${settings.root} is not a folder of the repository`);
      const changed = await mirrorFolder(source, targetDir);
      log('info', `docs git sync: ${maskSecrets(url, settings)} at ${commit.slice(0, 12)}${changed ? ', content changed' : ', no change'}`);
      return { ok: true, changed, commit, error: null };
    } catch (error) {
      const message = maskSecrets((error as Error).message, settings);
      log('error', `docs git sync failed, still serving the last good content: ${message}`);
      return { ok: false, changed: false, commit: null, error: message };
    }
  };

  const syncNow = (): Promise<GitSyncResult> => {
    queue = queue.then(once, once);
    return queue;
  };

  return {
    syncNow,
    start(onChange) {
      const job = new Cron(settings.cron, { protect: true, catch: true }, async () => {
        const result = await syncNow();
        if (result.changed) await onChange();
      });
      stopJob();
      stopJob = () => job.stop();
    },
    async stop() {
      stopJob();
      await queue.catch(() => undefined);
      if (checkout) await rm(checkout, { recursive: true, force: true });
      checkout = null;
    },
  };
}
