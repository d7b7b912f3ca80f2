/**
 * Git sync settings (section `Git` of environments/settings.json, or environment variables):
 *   Git:Enabled   default: on when Url is set        env Git__Enabled or GIT_ENABLED
 *   Git:Url       repository to clone (https, ssh, file or a local path)   Git__Url / GIT_URL
 *   Git:Branch    default: the remote's default branch                     Git__Branch / GIT_BRANCH
 *   Git:Root      folder inside the repository holding the docs, default the repository root
 *   Git:Username, Git:Password   HTTP(S) credentials (GIT_USERNAME, GIT_PASSWORD)
 *   Git:Cron      schedule, cron syntax (5 fields, or 6 with seconds), default every 5 minutes
 * Environment variables win over the file. The password is never logged or written to disk.
 */
import { pick, settingsFileSection } from './settings.js';

export const DEFAULT_GIT_CRON = '*/5 * * * *';

export interface GitSettings {
  readonly enabled: boolean;
  readonly url: string | null;
  readonly branch: string | null;
  /** Posix path inside the repository, '' for its root. */
  readonly root: string;
  readonly username: string | null;
  readonly password: string | null;
  readonly cron: string;
}

export function readGitSettings(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): GitSettings {
  const file = settingsFileSection(cwd, 'Git');
  const value = (key: string): string | null => {
    const fromEnv = env[`Git__${key}`] ?? env[`GIT_${key.toUpperCase()}`];
    const raw = fromEnv ?? pick(file, key);
    if (typeof raw === 'boolean') return String(raw);
    return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : null;
  };
  const url = value('Url');
  const enabled = value('Enabled');
  return {
    enabled: enabled === null ? url !== null : !/^(false|0|no|off)$/i.test(enabled),
    url,
    branch: value('Branch'),
    root: (value('Root') ?? '').replace(/\\/g, '/').replace(/^\/+|\/+$/g, ''),
    username: value('Username'),
    password: value('Password'),
    cron: value('Cron') ?? DEFAULT_GIT_CRON,
  };
}
