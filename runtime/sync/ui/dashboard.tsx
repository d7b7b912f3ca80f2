/**
 * The sync dashboard: one page that polls /ui/api/overview every few seconds (tracked objects,
 * connections, dead letters) and, when WebHost:AdminKey is configured and the operator signed in
 * with it, replays or purges dead letters. Read-only otherwise.
 */
import { useEffect, useState } from 'preact/hooks';
import { Badge, Empty, ErrorNote, Field } from '../../console-ui/ui.js';
import { call, type DeadLetterRow, type Overview, type Session } from './api.js';

const POLL_MS = 3000;

const time = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : '–');

function duration(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

function stateTone(state: string): string {
  if (state === 'up to date') return 'good';
  if (state === 'catching up' || state === 'starting') return 'warn';
  return 'bad';
}

function Objects({ overview }: { overview: Overview }) {
  if (overview.environments.length === 0) return <Empty>No environments configured and no stored state yet.</Empty>;
  return (
    <>
      {overview.environments.map((env) => (
        <div class="env table-wrap" key={env.name}>
          <table class="table" id={`objects-${env.name}`}>
            <caption class="nowrap"><strong>Environment {env.name}</strong></caption>
            <thead>
              <tr>
                <th scope="col">Object</th>
                <th scope="col">Procedure</th>
                <th scope="col" class="num">Last version</th>
                <th scope="col">Last update</th>
                <th scope="col" class="num">Lag</th>
                <th scope="col" class="num">Records/min</th>
                <th scope="col">State</th>
                <th scope="col" class="num">Dead letters</th>
              </tr>
            </thead>
            <tbody>
              {env.objects.map((o) => (
                <tr key={o.name}>
                  <th scope="row">{o.name}</th>
                  <td class="wrap"><code>{o.stored_procedure_name ?? '–'}</code></td>
                  <td class="num">{o.last_version ?? '–'}</td>
                  <td class="nowrap">{time(o.last_updated)}</td>
                  <td class="num nowrap">{duration(o.lag_seconds)}</td>
                  <td class="num">{o.throughput_per_minute}</td>
                  <td><span class={`badge ${stateTone(o.state)}`}>{o.state}</span></td>
                  <td class="num">{o.dead_letters}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </>
  );
}

function Connections({ overview }: { overview: Overview }) {
  const entries = Object.entries(overview.connections);
  if (entries.length === 0) return <Empty>No probe results yet (the first arrive shortly after start).</Empty>;
  return (
    <div class="table-wrap">
      <table class="table" id="connections">
        <thead>
          <tr>
            <th scope="col">Connection</th>
            <th scope="col">State</th>
            <th scope="col">Last error</th>
          </tr>
        </thead>
        <tbody>
          {entries.map(([key, c]) => (
            <tr key={key}>
              <th scope="row" class="wrap">{key}</th>
              <td><Badge status={c.is_healthy ? 'healthy' : 'unhealthy'} /></td>
              <td class="wrap">{c.last_error ?? '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AdminBar({ session, onSession }: { session: Session; onSession: (s: Session) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  if (!session.configured) {
    return <p class="muted" id="read-only">Read-only: set <code>WebHost:AdminKey</code> to replay or purge dead letters here.</p>;
  }
  if (session.signed_in) {
    const signOut = () =>
      call('DELETE', '/session', undefined, session.csrf).then(
        () => onSession({ configured: true, signed_in: false, csrf: null }),
        (e: unknown) => setError(e),
      );
    return (
      <p class="actions">
        <span class="ok">Signed in as administrator.</span>
        <button type="button" onClick={() => void signOut()}>Sign out</button>
        <ErrorNote error={error} />
      </p>
    );
  }
  const submit = (event: Event) => {
    event.preventDefault();
    call<{ csrf: string }>('POST', '/session', { key }).then(
      (r) => {
        setKey('');
        setError(null);
        onSession({ configured: true, signed_in: true, csrf: r.csrf });
      },
      (e: unknown) => setError(e),
    );
  };
  return (
    <form class="sign-in-inline" onSubmit={submit} aria-label="Administrator sign-in">
      <Field label="Administrator key" id="admin-key">
        <input id="admin-key" type="password" autocomplete="current-password" value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} required />
      </Field>
      <button type="submit" class="primary">Sign in</button>
      <ErrorNote error={error} />
    </form>
  );
}

function DeadLetters({ overview, session, refresh }: { overview: Overview; session: Session; refresh: () => void }) {
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const { summary, items } = overview.dead_letters;
  const admin = session.signed_in;
  const act = (action: 'replay' | 'purge', ids: number[] | 'all') => {
    if (action === 'purge' && !window.confirm(ids === 'all' ? 'Purge every dead letter? Their objects poll and send those changes again.' : `Purge dead letter ${ids.join(', ')}?`)) return;
    call<{ replayed?: number; purged?: number }>('POST', `/deadletters/${action}`, { ids }, session.csrf).then(
      (r) => {
        setError(null);
        setMessage(action === 'replay' ? `${r.replayed ?? 0} dead letter(s) due for replay now.` : `${r.purged ?? 0} dead letter(s) purged.`);
        refresh();
      },
      (e: unknown) => setError(e),
    );
  };
  const row = (l: DeadLetterRow) => (
    <tr key={l.id}>
      <th scope="row">#{l.id}</th>
      <td class="wrap">{l.environment}/{l.object} → {l.destination}</td>
      <td class="nowrap">v{l.from_version}..v{l.to_version}</td>
      <td><Badge status={l.status === 'exhausted' ? 'error' : 'warning'} /> <span class="muted">{l.status}</span></td>
      <td class="num">{l.attempts}</td>
      <td class="nowrap">{l.next_attempt_at ? time(l.next_attempt_at) : 'waits for an operator'}</td>
      <td class="wrap">{l.error}</td>
      {admin ? (
        <td class="actions">
          <button type="button" aria-label={`Replay dead letter ${l.id}`} onClick={() => act('replay', [l.id])}>Replay</button>
          <button type="button" class="danger" aria-label={`Purge dead letter ${l.id}`} onClick={() => act('purge', [l.id])}>Purge</button>
        </td>
      ) : null}
    </tr>
  );
  return (
    <>
      <dl class="card summary" id="dead-letter-summary">
        <dt>Total</dt><dd>{summary.TotalCount}</dd>
        <dt>Last hour / 24 h / 7 days</dt><dd>{summary.LastHourCount} / {summary.Last24HoursCount} / {summary.Last7DaysCount}</dd>
        <dt>Most common error (24 h)</dt>
        <dd id="most-common-error">{summary.MostCommonError ? `${summary.MostCommonError} (${summary.MostCommonErrorCount}×)` : 'none'}</dd>
      </dl>
      <AdminActions admin={admin} empty={items.length === 0} act={act} />
      <p role="status" aria-live="polite" class={message ? 'ok' : 'sr-only'}>{message ?? ''}</p>
      <ErrorNote error={error} />
      {items.length === 0 ? (
        <Empty>No dead letters.</Empty>
      ) : (
        <div class="table-wrap">
          <table class="table" id="dead-letters">
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Object → destination</th>
                <th scope="col">Versions</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">Attempts</th>
                <th scope="col">Next replay</th>
                <th scope="col">Error</th>
                {admin ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>{items.map(row)}</tbody>
          </table>
        </div>
      )}
    </>
  );
}

function AdminActions({ admin, empty, act }: { admin: boolean; empty: boolean; act: (a: 'replay' | 'purge', ids: 'all') => void }) {
  if (!admin || empty) return null;
  return (
    <p class="actions">
      <button type="button" onClick={() => act('replay', 'all')}>Replay all</button>
      <button type="button" class="danger" onClick={() => act('purge', 'all')}>Purge all</button>
    </p>
  );
}

export function Dashboard() {
  const [overview, setOverview] = useState<Overview | null>(null);
  const [session, setSession] = useState<Session | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    void call<Session>('GET', '/session').then(setSession, setError);
  }, []);
  useEffect(() => {
    let live = true;
    const load = () =>
      call<Overview>('GET', '/overview').then(
        (o) => live && (setOverview(o), setError(null)),
        (e: unknown) => live && setError(e),
      );
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [tick]);
  const refresh = () => setTick((t) => t + 1);
  return (
    <>
      <header class="top">
        <span class="brand">Wharf sync</span>
        <span class="muted live" id="updated">{overview ? `Updated ${new Date(overview.timestamp).toLocaleTimeString()} · refreshes every ${POLL_MS / 1000} s` : 'Loading…'}</span>
      </header>
      <main>
        <h1 id="page-title">Sync dashboard</h1>
        <ErrorNote error={error} />
        {overview && session ? (
          <>
            <section class="card" aria-labelledby="objects-title">
              <h2 id="objects-title">Tracked objects</h2>
              <Objects overview={overview} />
            </section>
            <section class="card" aria-labelledby="connections-title">
              <h2 id="connections-title">Connections</h2>
              <Connections overview={overview} />
            </section>
            <section class="card" aria-labelledby="dead-letters-title">
              <h2 id="dead-letters-title">Dead letters</h2>
              <AdminBar session={session} onSession={(s) => (setSession(s), refresh())} />
              <DeadLetters overview={overview} session={session} refresh={refresh} />
            </section>
          </>
        ) : (
          <p class="muted" role="status">Loading…</p>
        )}
      </main>
    </>
  );
}
