import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorNote, Field, Page } from '../ui.js';

const TYPES = ['sql', 'proxy', 'composite', 'static', 'webhook', 'files'];
const SAMPLE = '{\n  "DatabaseObjectName": "Products",\n  "AllowedColumns": ["ProductId", "Name"]\n}\n';

interface Verdict {
  readonly valid: boolean;
  readonly errors: readonly unknown[];
}

function describe(e: unknown): string {
  if (typeof e === 'string') return e;
  if (e && typeof e === 'object') {
    const r = e as Record<string, unknown>;
    const where = [r['line'] !== undefined ? `line ${String(r['line'])}` : '', typeof r['pointer'] === 'string' && r['pointer'] ? String(r['pointer']) : ''].filter(Boolean).join(', ');
    const text = String(r['message'] ?? JSON.stringify(r));
    return where ? `${where}: ${text}` : text;
  }
  return String(e);
}

export function ValidatorPage() {
  const [type, setType] = useState('sql');
  const [content, setContent] = useState(SAMPLE);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    // debounced: validate 400 ms after the last keystroke
    const timer = setTimeout(() => {
      setBusy(true);
      api<Verdict>('POST', `/endpoints/${type}/validate`, { content }).then(
        (v) => (setVerdict(v), setError(null), setBusy(false)),
        (e: unknown) => (setError(e), setVerdict(null), setBusy(false)),
      );
    }, 400);
    return () => clearTimeout(timer);
  }, [type, content]);
  return (
    <Page title="Validator">
      <p class="muted">Paste or edit an <code>entity.json</code>: it is checked as you type with the same rules as <code>wharf build</code>. Nothing is saved.</p>
      <Field label="Endpoint type" id="validate-type">
        <select id="validate-type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value)}>
          {TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
      </Field>
      <Field label="entity.json" id="validate-content">
        <textarea id="validate-content" rows={16} spellcheck={false} value={content} onInput={(e) => setContent((e.target as HTMLTextAreaElement).value)} aria-describedby="validate-result" />
      </Field>
      <div id="validate-result" aria-live="polite">
        {busy && !verdict ? <p class="muted">Checking…</p> : null}
        <ErrorNote error={error} />
        {verdict ? (verdict.valid ? <p class="ok">Valid: no problems found.</p> : (
          <div class="card">
            <h2>{verdict.errors.length} problem{verdict.errors.length === 1 ? '' : 's'}</h2>
            <ul class="problems">{verdict.errors.map((e, i) => <li key={i}>{describe(e)}</li>)}</ul>
          </div>
        )) : null}
      </div>
    </Page>
  );
}
