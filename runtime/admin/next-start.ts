/**
 * What the next start would make of a console settings change: settings.json with the new
 * overrides laid over it and the environment variables this instance started with, read by the
 * readers that stop a start (every key's own check, readServerSettings' rules across keys,
 * Server:Workers' shared stores). PUT /ui/api/settings asks before saving: each value passing its
 * own range is not enough when two saved values together stop the start (a MinPoolSize above a
 * MaxPoolSize saved earlier and not yet in force; Caching:Enabled with a Memory cache and several
 * workers).
 */
import { WharfError } from '../errors/wharf-error.js';
import { requireSharedStores, workerCount } from '../lifecycle/worker-count.js';
import type { ConfigSource } from '../settings/config-source.js';
import type { EnvironmentMap } from '../settings/environments.js';
import { readSettingsSource } from '../settings/load-settings.js';
import { readServerSettings } from '../settings/server-settings.js';

const VARIABLE = 'environment variable ';

/** The variables `running` was read with (the ones naming a setting), as an environment. */
function startVariables(running: ConfigSource): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of running.all()) {
    if (entry.source.startsWith(VARIABLE) && typeof entry.value === 'string') env[entry.source.slice(VARIABLE.length)] = entry.value;
  }
  return env;
}

export interface StartProblem {
  /** The key the refusal names. */
  readonly key: string;
  readonly message: string;
}

/**
 * Why the next start would stop with `next` (the overrides after the change), or null when it would
 * start, or when it would stop the same way with the overrides saved now (`saved`): a problem the
 * change did not make is not the change's to refuse.
 */
export function nextStartProblem(
  environmentsDir: string,
  next: Record<string, unknown>,
  saved: Record<string, unknown>,
  running: ConfigSource,
  environments: EnvironmentMap,
): StartProblem | null {
  const problem = startProblem(environmentsDir, next, running, environments);
  if (problem === null) return null;
  return startProblem(environmentsDir, saved, running, environments)?.message === problem.message ? null : problem;
}

function startProblem(environmentsDir: string, overrides: Record<string, unknown>, running: ConfigSource, environments: EnvironmentMap): StartProblem | null {
  try {
    const source = readSettingsSource(environmentsDir, startVariables(running), overrides);
    readServerSettings(source);
    const workers = workerCount(source);
    if (workers > 1) requireSharedStores(source, workers, environments);
    return null;
  } catch (error) {
    if (!(error instanceof WharfError) || error.area !== 'settings') throw error;
    return { key: /'([^']+)'/.exec(error.message)?.[1] ?? '', message: error.message };
  }
}
