import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { Badge, ErrorNote, Field, Loading, Page, useApi } from '../ui.js';

interface Writable {
  readonly key: string;
  readonly kind: string;
  readonly requires_restart: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly choices?: readonly string[];
}
type Dump = Readonly<Record<string, unknown>> & { writable: readonly Writable[] };

/** The value in force for a colon key, found in the grouped dump (`RateLimiting:IpLimit` -> rate_limiting.ip_limit). */
function current(dump: Dump, key: string): unknown {
  const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const [section, name] = key.split(':') as [string, string];
  const groups: Record<string, string> = { RateLimiting: 'rate_limiting', Caching: 'caching', SqlConnectionPooling: 'sql_pooling', Logging: 'logging', WebUi: 'security', ForwardedHeaders: 'deployment', Environment: 'environment', HealthChecks: 'health_checks' };
  const group = dump[groups[section] ?? snake(section)] as Record<string, unknown> | undefined;
  if (!group) return undefined;
  const aliases: Record<string, string> = { IpWindow: 'ip_window_seconds', TokenWindow: 'token_window_seconds', PublicOrigins: 'public_origins', KnownProxies: 'known_proxies', KnownNetworks: 'known_networks', SecureCookies: 'secure_cookies' };
  return group[aliases[name] ?? snake(name)];
}

const LIST_KINDS = new Set(['iplist', 'cidrlist', 'originlist']);

function Input({ w, value, onChange, disabled }: { w: Writable; value: unknown; onChange: (v: unknown) => void; disabled: boolean }) {
  const id = `setting-${w.key.replace(/:/g, '-')}`;
  if (w.kind === 'bool') return <input id={id} type="checkbox" role="switch" checked={value === true} disabled={disabled} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} />;
  if (w.kind === 'int') return <input id={id} type="number" step={1} min={w.min} max={w.max} value={value === undefined ? '' : String(value)} disabled={disabled} onInput={(e) => onChange(Number((e.target as HTMLInputElement).value))} />;
  if (w.kind === 'choice') return (
    <select id={id} value={String(value ?? '')} disabled={disabled} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
      {(w.choices ?? [String(value ?? '')]).map((c) => <option key={c} value={c}>{c}</option>)}
    </select>
  );
  if (LIST_KINDS.has(w.kind)) return <textarea id={id} rows={3} value={Array.isArray(value) ? value.join('\n') : String(value ?? '')} disabled={disabled} onInput={(e) => onChange((e.target as HTMLTextAreaElement).value.split('\n').map((s) => s.trim()).filter(Boolean))} />;
  return <input id={id} value={String(value ?? '')} disabled={disabled} onInput={(e) => onChange((e.target as HTMLInputElement).value)} />;
}

export function SettingsPage(props: { canWrite: boolean }) {
  const { data, error, reload } = useApi(() => api<Dump>('GET', '/settings'));
  const [edits, setEdits] = useState<Record<string, unknown>>({});
  const [saveError, setSaveError] = useState<unknown>(null);
  const [result, setResult] = useState<string | null>(null);
  if (!data) return <Page title="Settings">{error ? <ErrorNote error={error} /> : <Loading what="settings" />}</Page>;
  const save = async (e: Event) => {
    e.preventDefault();
    setSaveError(null);
    setResult(null);
    try {
      const r = await api<{ ok: boolean; restart_required: boolean }>('PUT', '/settings', edits);
      setResult(r.restart_required ? 'Saved. Some changes apply after a restart.' : 'Saved and applied.');
      setEdits({});
      reload();
    } catch (err) {
      setSaveError(err);
    }
  };
  const fieldError = (key: string) => (saveError instanceof ApiError && saveError.field === key ? saveError.message : null);
  return (
    <Page title="Settings">
      <form class="card" onSubmit={save}>
        {data.writable.map((w) => (
          <Field key={w.key} label={w.key} id={`setting-${w.key.replace(/:/g, '-')}`} error={fieldError(w.key)}
            hint={[w.kind, w.min !== undefined ? `${w.min} to ${w.max}` : '', w.requires_restart ? 'restart required' : 'applied live'].filter(Boolean).join(' · ')}>
            <Input w={w} value={w.key in edits ? edits[w.key] : current(data, w.key)} disabled={!props.canWrite} onChange={(v) => setEdits({ ...edits, [w.key]: v })} />
            {w.requires_restart ? <Badge status="restart required" /> : null}
          </Field>
        ))}
        {props.canWrite ? <button type="submit" class="primary" disabled={Object.keys(edits).length === 0}>Save {Object.keys(edits).length || ''} change{Object.keys(edits).length === 1 ? '' : 's'}</button> : <p class="muted">Viewers cannot change settings.</p>}
        <ErrorNote error={saveError && !(saveError instanceof ApiError && saveError.field) ? saveError : null} />
        {result ? <p class="ok" role="status">{result}</p> : null}
      </form>
      <details class="card">
        <summary>All settings in force</summary>
        <pre tabIndex={0} aria-label="All settings in force">{JSON.stringify(Object.fromEntries(Object.entries(data).filter(([k]) => k !== 'writable')), null, 2)}</pre>
      </details>
    </Page>
  );
}
