import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Badge, Empty, ErrorNote, Loading, Page, useApi } from '../ui.js';

interface LogEntry {
  readonly timestamp: string;
  readonly level: string;
  readonly message: string;
  readonly source: string;
}
interface LogPage {
  readonly page: number;
  readonly total_pages: number;
  readonly logs: readonly LogEntry[];
}

const LEVELS = ['', 'Debug', 'Information', 'Warning', 'Error'];

export function LogsPage(props: { eventTick: number }) {
  const [page, setPage] = useState(1);
  const [level, setLevel] = useState('');
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [live, setLive] = useState(false);
  const [tick, setTick] = useState(0);
  // live tail: every server event (and a 5 s heartbeat) refreshes the first page
  useEffect(() => {
    if (!live) return;
    setPage(1);
    setTick((t) => t + 1);
    const timer = setInterval(() => setTick((t) => t + 1), 5000);
    return () => clearInterval(timer);
  }, [live, props.eventTick]);
  const query = new URLSearchParams({ page: String(page), limit: '50', ...(level ? { level } : {}), ...(applied ? { search: applied } : {}) });
  const { data, error } = useApi(() => api<LogPage>('GET', `/logs?${query.toString()}`), [query.toString(), tick]);
  return (
    <Page title="Logs" actions={<label class="inline"><input type="checkbox" checked={live} onChange={(e) => setLive((e.target as HTMLInputElement).checked)} /> Live tail</label>}>
      <form class="filters" onSubmit={(e) => (e.preventDefault(), setApplied(search), setPage(1))}>
        <div class="filter">
          <label for="log-level">Level</label>
          <select id="log-level" value={level} onChange={(e) => (setLevel((e.target as HTMLSelectElement).value), setPage(1))}>
            {LEVELS.map((l) => <option key={l} value={l}>{l || 'all'}</option>)}
          </select>
        </div>
        <div class="filter grow">
          <label for="log-search">Search</label>
          <input id="log-search" type="search" value={search} onInput={(e) => setSearch((e.target as HTMLInputElement).value)} />
        </div>
        <button type="submit">Filter</button>
      </form>
      <ErrorNote error={error} />
      {!data && !error ? <Loading what="logs" /> : null}
      {data && data.logs.length === 0 ? <Empty>No log entries match.</Empty> : null}
      {data && data.logs.length > 0 ? (
        <div class="table-wrap">
          <table class="table logs stack">
            <caption class="sr-only">Log entries</caption>
            <thead><tr><th scope="col">Time (UTC)</th><th scope="col">Level</th><th scope="col">Message</th><th scope="col">Source</th></tr></thead>
            <tbody>{data.logs.map((l, i) => <tr key={`${l.timestamp}-${i}`}><td data-label="Time (UTC)" class="nowrap">{l.timestamp}</td><td data-label="Level"><Badge status={l.level} /></td><td data-label="Message" class="wrap message">{l.message}</td><td data-label="Source">{l.source}</td></tr>)}</tbody>
          </table>
        </div>
      ) : null}
      {data ? (
        <nav class="pager" aria-label="Log pages">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>Newer</button>
          <span>Page {data.page} of {Math.max(1, data.total_pages)}</span>
          <button type="button" disabled={page >= data.total_pages} onClick={() => setPage(page + 1)}>Older</button>
        </nav>
      ) : null}
    </Page>
  );
}
