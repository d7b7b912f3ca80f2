import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { ErrorNote, Field, Loading, Page, useApi } from '../ui.js';

interface Writable {
  readonly key: string;
  readonly kind: string;
  readonly requires_restart: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly choices?: readonly string[];
}
interface Effective {
  readonly value: unknown;
  readonly source: 'default' | 'file' | 'environment' | 'console';
  readonly pending?: unknown;
}
type Dump = Readonly<Record<string, unknown>> & { writable: readonly Writable[]; effective: Readonly<Record<string, Effective>> };

const SOURCE_TEXT: Record<Effective['source'], string> = {
  default: 'default',
  file: 'settings file',
  environment: 'environment variable',
  console: 'set in the console',
};

const shown = (value: unknown): string => (Array.isArray(value) ? value.join(', ') || '(none)' : value === null || value === '' ? '(empty)' : String(value));
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

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
        <p class="muted">Each field shows the value in force and where it comes from. Only the fields you change are saved.</p>
        {data.writable.map((w) => {
          const id = `setting-${w.key.replace(/:/g, '-')}`;
          const effective = data.effective[w.key];
          const value = w.key in edits ? edits[w.key] : effective?.value;
          return (
            <Field key={w.key} label={w.key} id={id} error={fieldError(w.key)}
              badges={<>
                {effective ? <span class={`tag source-${effective.source}`}>{SOURCE_TEXT[effective.source]}</span> : null}
                {w.requires_restart ? <span class="tag restart">restart required</span> : <span class="tag live">applied live</span>}
                {w.key in edits ? <span class="tag changed">changed</span> : null}
              </>}
              hint={[w.kind, w.min !== undefined ? `${w.min} to ${w.max}` : '', effective?.pending !== undefined ? `saved ${shown(effective.pending)}, applies after a restart` : ''].filter(Boolean).join(' · ')}>
              <Input w={w} value={value} disabled={!props.canWrite} onChange={(v) => {
                const next = { ...edits };
                if (same(v, effective?.value)) delete next[w.key];
                else next[w.key] = v;
                setEdits(next);
              }} />
            </Field>
          );
        })}
        {props.canWrite ? <button type="submit" class="primary" disabled={Object.keys(edits).length === 0}>Save {Object.keys(edits).length || ''} change{Object.keys(edits).length === 1 ? '' : 's'}</button> : <p class="muted">Viewers cannot change settings.</p>}
        <ErrorNote error={saveError && !(saveError instanceof ApiError && saveError.field) ? saveError : null} />
        {result ? <p class="ok" role="status">{result}</p> : null}
      </form>
      <details class="card">
        <summary>All settings in force</summary>
        <pre tabIndex={0} aria-label="All settings in force">{JSON.stringify(Object.fromEntries(Object.entries(data).filter(([k]) => k !== 'writable' && k !== 'effective')), null, 2)}</pre>
      </details>
    </Page>
  );
}
