import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { Badge, Empty, ErrorNote, Field, Loading, Page, useApi } from '../ui.js';

interface Token {
  readonly id: number;
  readonly username: string;
  readonly description: string;
  readonly created_at: string;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
  readonly allowed_scopes: string;
  readonly allowed_environments: string;
  readonly is_active: boolean;
}
interface Audit {
  readonly operation: string;
  readonly timestamp: string;
  readonly details: string;
  readonly ip_address: string | null;
  readonly user_agent: string | null;
}

function Secret({ value, onDone }: { value: { token: string; username: string }; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="card secret" role="alert">
      <h2>Token for {value.username}</h2>
      <p><strong>Copy it now: it is shown only this once.</strong> Wharf keeps only a hash of it.</p>
      <code class="token-value" id="new-token">{value.token}</code>
      <div class="actions">
        <button type="button" onClick={() => navigator.clipboard.writeText(value.token).then(() => setCopied(true), () => setCopied(false))}>{copied ? 'Copied' : 'Copy'}</button>
        <button type="button" onClick={onDone}>Done</button>
      </div>
    </div>
  );
}

function CreateForm({ onCreated }: { onCreated: (t: { token: string; username: string }) => void }) {
  const [form, setForm] = useState({ username: '', description: '', allowed_scopes: '*', allowed_environments: '*', expires_in_days: '' });
  const [error, setError] = useState<unknown>(null);
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const body = { ...form, expires_in_days: form.expires_in_days ? Number(form.expires_in_days) : undefined };
      const r = await api<{ token: { token: string; username: string } }>('POST', '/tokens', body);
      onCreated(r.token);
      setForm({ ...form, username: '', description: '' });
    } catch (err) {
      setError(err);
    }
  };
  const fe = (f: string) => (error instanceof ApiError && error.field === f ? error.message : null);
  return (
    <form class="card" onSubmit={submit} aria-label="Create a token">
      <h2>Create a token</h2>
      <div class="grid">
        <Field label="Username" id="tok-username" error={fe('username')}><input id="tok-username" required value={form.username} onInput={set('username')} /></Field>
        <Field label="Description" id="tok-description"><input id="tok-description" value={form.description} onInput={set('description')} /></Field>
        <Field label="Scopes" id="tok-scopes" hint="* , read, write, or endpoint patterns" error={fe('allowed_scopes')}><input id="tok-scopes" value={form.allowed_scopes} onInput={set('allowed_scopes')} /></Field>
        <Field label="Environments" id="tok-envs" hint="* or a comma-separated list" error={fe('allowed_environments')}><input id="tok-envs" value={form.allowed_environments} onInput={set('allowed_environments')} /></Field>
        <Field label="Expires in days" id="tok-expiry" hint="empty: never" error={fe('expires_in_days')}><input id="tok-expiry" type="number" min={1} value={form.expires_in_days} onInput={set('expires_in_days')} /></Field>
      </div>
      <button type="submit" class="primary">Create token</button>
      <ErrorNote error={error && !(error instanceof ApiError && error.field) ? error : null} />
    </form>
  );
}

function EditRow({ token, onSaved, onCancel }: { token: Token; onSaved: () => void; onCancel: () => void }) {
  const [form, setForm] = useState({ allowed_scopes: token.allowed_scopes, allowed_environments: token.allowed_environments, description: token.description, expires_at: token.expires_at ?? '' });
  const [error, setError] = useState<unknown>(null);
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  const save = async (e: Event) => {
    e.preventDefault();
    try {
      const expires = form.expires_at.trim() ? new Date(form.expires_at.replace(' ', 'T') + (form.expires_at.includes('Z') ? '' : 'Z')).toISOString() : null;
      await api('PUT', `/tokens/${token.id}`, { ...form, expires_at: expires });
      onSaved();
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form class="card" onSubmit={save} aria-label={`Edit token ${token.username}`}>
      <h3>Edit {token.username}</h3>
      <div class="grid">
        <Field label="Scopes" id={`edit-scopes-${token.id}`}><input id={`edit-scopes-${token.id}`} value={form.allowed_scopes} onInput={set('allowed_scopes')} /></Field>
        <Field label="Environments" id={`edit-envs-${token.id}`}><input id={`edit-envs-${token.id}`} value={form.allowed_environments} onInput={set('allowed_environments')} /></Field>
        <Field label="Description" id={`edit-desc-${token.id}`}><input id={`edit-desc-${token.id}`} value={form.description} onInput={set('description')} /></Field>
        <Field label="Expires at (UTC, empty: never)" id={`edit-exp-${token.id}`}><input id={`edit-exp-${token.id}`} value={form.expires_at} placeholder="2027-01-31 00:00:00" onInput={set('expires_at')} /></Field>
      </div>
      <div class="actions"><button type="submit" class="primary">Save</button><button type="button" onClick={onCancel}>Cancel</button></div>
      <ErrorNote error={error} />
    </form>
  );
}

function AuditList({ id }: { id: number }) {
  const { data, error } = useApi(() => api<Audit[]>('GET', `/tokens/${id}/audit`), [id]);
  if (error) return <ErrorNote error={error} />;
  if (!data) return <Loading what="the audit log" />;
  if (data.length === 0) return <Empty>No audit entries.</Empty>;
  return (
    <table class="table stack"><caption class="sr-only">Audit log</caption>
      <thead><tr><th scope="col">When</th><th scope="col">Operation</th><th scope="col">Details</th><th scope="col">IP</th><th scope="col">User agent</th></tr></thead>
      <tbody>{data.map((a, i) => <tr key={i}><td data-label="When">{a.timestamp}</td><td data-label="Operation">{a.operation}</td><td data-label="Details" class="wrap">{a.details}</td><td data-label="IP">{a.ip_address ?? ''}</td><td data-label="User agent" class="wrap">{a.user_agent ?? ''}</td></tr>)}</tbody>
    </table>
  );
}

export function TokensPage(props: { canWrite: boolean; eventTick: number }) {
  const [showRevoked, setShowRevoked] = useState(false);
  const { data, error, reload } = useApi(() => api<Token[]>('GET', `/tokens${showRevoked ? '?include_revoked=true' : ''}`), [showRevoked, props.eventTick]);
  const [secret, setSecret] = useState<{ token: string; username: string } | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [auditOf, setAuditOf] = useState<number | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const act = async (fn: () => Promise<unknown>) => {
    setActionError(null);
    try {
      await fn();
      reload();
    } catch (err) {
      setActionError(err);
    }
  };
  return (
    <Page title="API tokens" actions={<label class="inline"><input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked((e.target as HTMLInputElement).checked)} /> Show revoked</label>}>
      {secret ? <Secret value={secret} onDone={() => setSecret(null)} /> : null}
      {props.canWrite ? <CreateForm onCreated={(t) => (setSecret(t), reload())} /> : <p class="muted">Viewers can list tokens but not change them.</p>}
      <ErrorNote error={error ?? actionError} />
      {!data && !error ? <Loading what="tokens" /> : null}
      {data && data.length === 0 ? <Empty>No tokens yet.</Empty> : null}
      {data && data.length > 0 ? (
        <div class="table-wrap">
          <table class="table stack">
            <caption class="sr-only">Tokens</caption>
            <thead><tr><th scope="col">User</th><th scope="col">State</th><th scope="col">Scopes</th><th scope="col">Environments</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Actions</th></tr></thead>
            <tbody>
              {data.map((t) => (
                <tr key={t.id}>
                  <th scope="row">{t.username}<br /><small class="muted">{t.description}</small></th>
                  <td data-label="State"><Badge status={t.is_active ? 'active' : t.revoked_at ? 'revoked' : 'expired'} /></td>
                  <td data-label="Scopes"><code>{t.allowed_scopes}</code></td>
                  <td data-label="Environments"><code>{t.allowed_environments}</code></td>
                  <td data-label="Created">{t.created_at}</td>
                  <td data-label="Expires">{t.expires_at ?? 'never'}</td>
                  <td data-label="Actions" class="actions">
                    {t.revoked_at === null ? (
                      <>
                        <button type="button" disabled={!props.canWrite} onClick={() => setEditing(t.id)}>Edit</button>
                        <button type="button" disabled={!props.canWrite} onClick={() => act(async () => setSecret((await api<{ token: { token: string; username: string } }>('POST', `/tokens/${t.id}/rotate`)).token))}>Rotate</button>
                        <button type="button" class="danger" disabled={!props.canWrite} onClick={() => confirm(`Revoke the token of ${t.username}? Clients using it get 401 at once.`) && act(() => api('DELETE', `/tokens/${t.id}`))}>Revoke</button>
                      </>
                    ) : (
                      <button type="button" disabled={!props.canWrite} onClick={() => act(() => api('POST', `/tokens/${t.id}/unarchive`))}>Unarchive</button>
                    )}
                    <button type="button" aria-expanded={auditOf === t.id} onClick={() => setAuditOf(auditOf === t.id ? null : t.id)}>Audit</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {editing !== null && data ? (() => {
        const t = data.find((x) => x.id === editing);
        return t ? <EditRow token={t} onSaved={() => (setEditing(null), reload())} onCancel={() => setEditing(null)} /> : null;
      })() : null}
      {auditOf !== null ? <div class="card"><h2>Audit log</h2><AuditList id={auditOf} /></div> : null}
    </Page>
  );
}
