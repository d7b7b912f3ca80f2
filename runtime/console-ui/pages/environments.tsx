import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { ErrorNote, Field, Loading, Page, useApi } from '../ui.js';

interface Environments {
  readonly server_name: string;
  readonly allowed_environments: readonly string[];
  readonly environments: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

export function EnvironmentsPage(props: { canWrite: boolean }) {
  const { data, error, reload } = useApi(() => api<Environments>('GET', '/environments'));
  const [allowed, setAllowed] = useState<string | null>(null);
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [saveError, setSaveError] = useState<unknown>(null);
  const [changed, setChanged] = useState<string[] | null>(null);
  if (!data) return <Page title="Environments">{error ? <ErrorNote error={error} /> : <Loading what="environments" />}</Page>;
  const allowedText = allowed ?? data.allowed_environments.join(', ');
  const save = async (e: Event) => {
    e.preventDefault();
    setSaveError(null);
    const list = allowedText.split(',').map((s) => s.trim()).filter(Boolean);
    const envs: Record<string, { connection_string: string }> = {};
    for (const [name, value] of Object.entries(secrets)) if (value.trim()) envs[name] = { connection_string: value };
    const what: string[] = [];
    if (list.join(',') !== data.allowed_environments.join(',')) what.push(`allowed environments: ${data.allowed_environments.join(', ') || 'none'} → ${list.join(', ') || 'none'}`);
    for (const name of Object.keys(envs)) what.push(`${name}: new connection string`);
    try {
      await api('PATCH', '/environments', { allowed_environments: list, environments: envs });
      setChanged(what.length ? what : ['nothing changed']);
      setSecrets({});
      setAllowed(null);
      reload();
    } catch (err) {
      setSaveError(err);
    }
  };
  const fieldError = (f: string) => (saveError instanceof ApiError && saveError.field === f ? saveError.message : null);
  return (
    <Page title="Environments">
      <form onSubmit={save} class="card">
        <p>Server <strong>{data.server_name}</strong></p>
        <Field label="Allowed environments (comma-separated)" id="env-allowed" error={fieldError('allowed_environments')}>
          <input id="env-allowed" value={allowedText} disabled={!props.canWrite} onInput={(e) => setAllowed((e.target as HTMLInputElement).value)} />
        </Field>
        {Object.entries(data.environments).map(([name, env]) => (
          <fieldset key={name}>
            <legend>{name}</legend>
            <p class="muted">Current connection string: <code>{String(env['connection_string'] ?? 'none')}</code> (secrets are never sent to the browser)</p>
            <Field label="New connection string (leave empty to keep the current one)" id={`env-${name}`} error={fieldError(`environments.${name}.connection_string`)}>
              <input id={`env-${name}`} type="password" autocomplete="off" disabled={!props.canWrite} value={secrets[name] ?? ''} onInput={(e) => setSecrets({ ...secrets, [name]: (e.target as HTMLInputElement).value })} />
            </Field>
          </fieldset>
        ))}
        {props.canWrite ? <button type="submit" class="primary">Save</button> : <p class="muted">Viewers cannot change environments.</p>}
        <ErrorNote error={saveError && !(saveError instanceof ApiError && saveError.field) ? saveError : null} />
        {changed ? <div class="ok" role="status"><strong>Saved.</strong><ul>{changed.map((c) => <li key={c}>{c}</li>)}</ul></div> : null}
      </form>
    </Page>
  );
}
