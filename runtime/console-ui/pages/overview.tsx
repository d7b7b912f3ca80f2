import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Chart } from '../chart.js';
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

interface EndpointTotal {
  readonly endpoint: string;
  readonly requests: number;
  readonly errors_4xx: number;
  readonly errors_5xx: number;
}
type Traffic =
  | { readonly enabled: false; readonly message: string }
  | {
      readonly enabled: true;
      readonly step_seconds: number;
      readonly endpoint: string | null;
      readonly instances: number;
      readonly t: number[];
      readonly requests_per_second: number[];
      readonly error_4xx_percent: (number | null)[];
      readonly error_5xx_percent: (number | null)[];
      readonly latency_p50_ms: (number | null)[];
      readonly latency_p99_ms: (number | null)[];
      readonly rate_limited: number[];
      readonly cache_hit_percent: (number | null)[];
      readonly totals: { requests: number; errors_4xx: number; errors_5xx: number; rate_limited: number; cache_hits: number; cache_misses: number };
      readonly endpoints: string[];
      readonly top_by_traffic: EndpointTotal[];
      readonly top_by_errors: EndpointTotal[];
    };

function TopTable(props: { caption: string; rows: readonly EndpointTotal[]; onPick: (endpoint: string) => void }) {
  if (props.rows.length === 0) return <div class="card"><h3>{props.caption}</h3><p class="empty">Nothing in the last hour.</p></div>;
  return (
    <div class="card">
      <table class="table stack">
        <caption>{props.caption}</caption>
        <thead><tr><th scope="col">Endpoint</th><th scope="col">Requests</th><th scope="col">4xx</th><th scope="col">5xx</th></tr></thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.endpoint}>
              <td data-label="Endpoint" class="wrap"><button type="button" class="link" onClick={() => props.onPick(r.endpoint)}>{r.endpoint}</button></td>
              <td data-label="Requests">{r.requests}</td>
              <td data-label="4xx">{r.errors_4xx}</td>
              <td data-label="5xx">{r.errors_5xx}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TrafficPanel(props: { tick: number; theme: string }) {
  const [endpoint, setEndpoint] = useState('');
  const { data, error } = useApi(() => api<Traffic>('GET', `/traffic${endpoint ? `?endpoint=${encodeURIComponent(endpoint)}` : ''}`), [endpoint, props.tick]);
  if (error) return <ErrorNote error={error} />;
  if (!data) return <Loading what="traffic" />;
  if (!data.enabled) return <p class="empty">{data.message}</p>;
  const totals = data.totals;
  const lookups = totals.cache_hits + totals.cache_misses;
  const choices = endpoint && !data.endpoints.includes(endpoint) ? [endpoint, ...data.endpoints] : data.endpoints;
  const pick = (name: string) => {
    setEndpoint(name);
    document.getElementById('traffic-endpoint')?.focus();
  };
  return (
    <section aria-labelledby="traffic-title" class="traffic">
      <div class="page-head">
        <h2 id="traffic-title">Traffic, last hour <span class="muted">({data.step_seconds}-second steps, live{data.instances > 1 ? `, ${data.instances} instances` : ''})</span></h2>
        <div class="field inline">
          <label for="traffic-endpoint">Show</label>
          <select id="traffic-endpoint" value={endpoint} onChange={(e) => setEndpoint((e.target as HTMLSelectElement).value)}>
            <option value="">Whole gateway</option>
            {choices.map((name) => <option key={name} value={name}>{name}</option>)}
          </select>
        </div>
      </div>
      <ul class="tiles" aria-label="Last hour in numbers">
        <li><strong>{totals.requests}</strong> requests</li>
        <li><strong>{totals.errors_4xx}</strong> 4xx</li>
        <li><strong>{totals.errors_5xx}</strong> 5xx</li>
        <li><strong>{totals.rate_limited}</strong> rate-limited (429)</li>
        <li><strong>{lookups === 0 ? '–' : `${Math.round((totals.cache_hits / lookups) * 100)}%`}</strong> cache hits</li>
      </ul>
      <div class="charts">
        <Chart id="chart-rps" title="Requests per second" unit="req/s" theme={props.theme} t={data.t} lines={[{ label: 'requests/s', values: data.requests_per_second, tone: 'blue' }]} />
        <Chart id="chart-errors" title="Error rate" unit="%" theme={props.theme} t={data.t} lines={[{ label: '4xx', values: data.error_4xx_percent, tone: 'orange' }, { label: '5xx', values: data.error_5xx_percent, tone: 'red' }]} />
        <Chart id="chart-latency" title="Latency" unit="ms" theme={props.theme} t={data.t} lines={[{ label: 'p50', values: data.latency_p50_ms, tone: 'green' }, { label: 'p99', values: data.latency_p99_ms, tone: 'purple' }]} />
        <Chart id="chart-limits" title="Rate-limit rejections per step" unit="" theme={props.theme} t={data.t} lines={[{ label: '429s', values: data.rate_limited, tone: 'red' }]} />
        <Chart id="chart-cache" title="Cache hit ratio" unit="%" theme={props.theme} t={data.t} lines={[{ label: 'hits', values: data.cache_hit_percent, tone: 'blue' }]} />
      </div>
      <div class="cards two">
        <TopTable caption="Top endpoints by traffic" rows={data.top_by_traffic} onPick={pick} />
        <TopTable caption="Top endpoints by errors" rows={data.top_by_errors} onPick={pick} />
      </div>
    </section>
  );
}

export function OverviewPage(props: { health: string; lastReload: string | null; trafficTick: number; theme: string }) {
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
      <TrafficPanel tick={props.trafficTick} theme={props.theme} />
    </Page>
  );
}
