/**
 * Git sync settings (section `Git` of environments/settings.json, or environment variables):
 *   Git:Enabled   default: on when Url is set        env Git__Enabled or GIT_ENABLED
 *   Git:Url       repository to clone (https, ssh, file or a local path)   Git__Url / GIT_URL
 *   Git:Branch    default: the remote's default branch                     Git__Branch / GIT_BRANCH
 *   Git:Root      folder inside the repository holding the docs, default the repository root
 *   Git:Username, Git:Password   HTTP(S) credentials (GIT_USERNAME, GIT_PASSWORD)
 *   Git:Cron      schedule, cron syntax (5 fields, or 6 with seconds), default every 5 minutes
 * Registered in schemas/settings.schema.json; `Git__*` variables win over the GIT_* ones, which win
 * over the file; booleans are true or false. The password is never logged or written to disk.
 */
import { join } from 'node:path';
import { readSettingsSource } from '../settings/load-settings.js';

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
  const source = readSettingsSource(join(cwd, 'environments'), env);
  const value = (key: string): string | null => {
    const text = source.string(`Git:${key}`).trim();
    return text === '' ? null : text;
  };
  const url = value('Url');
  return {
    enabled: source.optionalBool('Git:Enabled') ?? url !== null,
    url,
    branch: value('Branch'),
    root: (value('Root') ?? '').replace(/\\/g, '/').replace(/^\/+|\/+$/g, ''),
    username: value('Username'),
    password: value('Password'),
    cron: value('Cron') ?? DEFAULT_GIT_CRON,
  };
}
