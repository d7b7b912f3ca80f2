import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Badge, Empty, ErrorNote, Loading, Page, useApi } from '../ui.js';

type Item = Readonly<Record<string, unknown>> & { name: string; namespace: string | null; path: string; methods: readonly string[]; enabled: boolean; hidden: boolean };
type Listing = Readonly<Record<string, readonly Item[]>>;

const LABELS: Readonly<Record<string, string>> = { sql: 'SQL', proxy: 'Proxy / Composite', static: 'Static', files: 'Files', webhooks: 'Webhooks' };

function route(kind: string, item: Item): string {
  const base = kind === 'files' ? `files/${item.namespace ? `${item.namespace}/` : ''}${item.name}` : `${item.namespace ? `${item.namespace}/` : ''}${item.name}`;
  return `/api/{env}/${base}`;
}

function Detail({ kind, item, onClose }: { kind: string; item: Item; onClose: () => void }) {
  const { name, namespace, path, methods, enabled, hidden, ...rest } = item;
  return (
    <div class="card detail" role="region" aria-label={`Endpoint ${name}`}>
      <div class="page-head">
        <h2>{namespace ? `${namespace}/` : ''}{name}</h2>
        <button type="button" onClick={onClose}>Close</button>
      </div>
      <dl>
        <dt>Type</dt><dd>{String(rest['type'] ?? LABELS[kind] ?? kind)}</dd>
        <dt>Route</dt><dd><code>{route(kind, item)}</code></dd>
        <dt>Methods</dt><dd>{methods.join(', ') || 'none'}</dd>
        <dt>State</dt><dd><Badge status={enabled ? 'enabled' : 'disabled'} />{hidden ? ' hidden from the API reference' : ''}</dd>
        <dt>Configuration</dt><dd><code>{path}</code></dd>
        {Object.entries(rest).map(([k, v]) => (
          <>
            <dt key={`${k}-t`}>{k}</dt>
            <dd key={`${k}-d`}>{Array.isArray(v) ? v.join(', ') || 'none' : v === null ? 'none' : String(v)}</dd>
          </>
        ))}
      </dl>
      {hidden ? null : <p><a href={`/docs#/${encodeURIComponent(namespace ?? 'default')}`}>Open in the API reference</a></p>}
    </div>
  );
}

export function EndpointsPage(props: { lastReload: string | null }) {
  const { data, error } = useApi(() => api<Listing>('GET', '/endpoints'), [props.lastReload]);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState<{ kind: string; item: Item } | null>(null);
  const q = query.trim().toLowerCase();
  const matches = (item: Item) => !q || `${item.namespace ?? ''}/${item.name} ${item.path}`.toLowerCase().includes(q);
  return (
    <Page title="Endpoints">
      <div class="field inline">
        <label for="endpoint-search">Search</label>
        <input id="endpoint-search" type="search" value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} placeholder="name, namespace or file" />
      </div>
      <ErrorNote error={error} />
      {!data && !error ? <Loading what="endpoints" /> : null}
      {open ? <Detail kind={open.kind} item={open.item} onClose={() => setOpen(null)} /> : null}
      {data ? Object.entries(data).map(([kind, items]) => {
        const shown = items.filter(matches);
        const groups = new Map<string, Item[]>();
        for (const item of shown) groups.set(item.namespace ?? '(no namespace)', [...(groups.get(item.namespace ?? '(no namespace)') ?? []), item]);
        return (
          <div class="card" key={kind}>
            <h2>{LABELS[kind] ?? kind} <span class="muted">({shown.length})</span></h2>
            {shown.length === 0 ? <Empty>{items.length === 0 ? 'None configured.' : 'No match.'}</Empty> : [...groups].map(([ns, list]) => (
              <div key={ns}>
                <h3>{ns}</h3>
                <ul class="list">
                  {list.map((item) => (
                    <li key={item.path}>
                      <button type="button" class="link" onClick={() => setOpen({ kind, item })}>{item.name}</button>
                      <span class="muted"> {item.methods.join(' ')}</span>
                      {item.enabled ? null : <Badge status="disabled" />}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        );
      }) : null}
    </Page>
  );
}
