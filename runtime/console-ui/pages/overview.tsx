import { api } from '../api.js';
import { Badge, ErrorNote, Loading, Page, useApi } from '../ui.js';

interface Overview {
  readonly version: string;
  readonly uptime_seconds: number;
  readonly endpoints: Readonly<Record<string, number>>;
  readonly environments: readonly string[];
  readonly server_name: string;
}

function uptime(s: number): string {
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  return d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : `${m} min ${s % 60} s`;
}

export function OverviewPage(props: { health: string; lastReload: string | null }) {
  const { data, error } = useApi(() => api<Overview>('GET', '/overview'), [props.lastReload]);
  return (
    <Page title="Overview">
      <ErrorNote error={error} />
      {!data && !error ? <Loading what="the overview" /> : null}
      {data ? (
        <div class="cards">
          <dl class="card">
            <dt>Server</dt><dd>{data.server_name}</dd>
            <dt>Version</dt><dd><code>{data.version}</code></dd>
            <dt>Uptime</dt><dd>{uptime(data.uptime_seconds)}</dd>
            <dt>Health</dt><dd><Badge status={props.health} /> <a href="#/health">details</a></dd>
            <dt>Last reload</dt><dd>{props.lastReload ?? 'none since the page opened'}</dd>
          </dl>
          <div class="card">
            <h2>Endpoints</h2>
            <ul class="counts">
              {Object.entries(data.endpoints).map(([kind, n]) => (
                <li key={kind}><a href={`#/endpoints?type=${kind}`}><strong>{n}</strong> {kind}</a></li>
              ))}
            </ul>
          </div>
          <div class="card">
            <h2>Environments</h2>
            {data.environments.length === 0 ? <p class="empty">No environments configured.</p> : (
              <ul class="tags">{data.environments.map((e) => <li key={e}><code>{e}</code></li>)}</ul>
            )}
          </div>
        </div>
      ) : null}
    </Page>
  );
}
