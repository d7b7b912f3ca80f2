import { api } from '../api.js';
import { Chart } from '../chart.js';
import { Badge, ErrorNote, Loading, Page, useApi } from '../ui.js';

interface Check {
  readonly name: string;
  readonly status: string;
  readonly description: string;
  readonly duration: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly tags: readonly string[];
}
interface Sample {
  readonly at: number;
  readonly status: string;
  readonly ms: number;
}
interface Details {
  readonly history?: Readonly<Record<string, readonly Sample[]>>;
  readonly status: string;
  readonly timestamp: string;
  readonly checks: readonly Check[];
  readonly totalDuration: string;
  readonly version: string;
}

const TONE: Record<string, string> = { Healthy: 'good', Degraded: 'warn', Unhealthy: 'bad' };

/** A check's last runs: one cell per run (oldest first) and its duration over time. */
function History(props: { name: string; samples: readonly Sample[]; theme: string }) {
  const { samples } = props;
  if (samples.length === 0) return null;
  const counts = new Map<string, number>();
  for (const s of samples) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  const since = new Date(samples[0]!.at).toISOString().slice(11, 16);
  const words = [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
  return (
    <div class="history">
      <p class="muted">Last {samples.length} run{samples.length === 1 ? '' : 's'} since {since} UTC: {words}</p>
      <ol class="strip" aria-label={`${props.name}: last ${samples.length} runs, oldest first: ${words}`}>
        {samples.map((s) => <li key={s.at} class={TONE[s.status] ?? 'plain'} title={`${new Date(s.at).toISOString().slice(11, 19)} UTC ${s.status} in ${s.ms} ms`} />)}
      </ol>
      {samples.length > 1 ? <Chart id={`health-${props.name}`} title="Duration" unit="ms" theme={props.theme} height={100} t={samples.map((s) => s.at / 1000)} lines={[{ label: 'duration', values: samples.map((s) => s.ms), tone: 'blue' }]} /> : null}
    </div>
  );
}

export function HealthPage(props: { health: string; eventTick: number; theme: string }) {
  const { data, error } = useApi(() => api<Details>('GET', '/health'), [props.health, props.eventTick]);
  return (
    <Page title="Health">
      <ErrorNote error={error} />
      {!data && !error ? <Loading what="health checks" /> : null}
      {data ? (
        <>
          <p>Overall <Badge status={data.status} /> <span class="muted">checked {data.timestamp} in {data.totalDuration}; refreshed live</span></p>
          <div class="cards">
            {data.checks.map((c) => (
              <div class="card" key={c.name}>
                <h2>{c.name} <Badge status={c.status} /></h2>
                <p>{c.description}</p>
                <p class="muted">{c.duration} · {c.tags.join(', ')}</p>
                <History name={c.name} samples={data.history?.[c.name] ?? []} theme={props.theme} />
                <details>
                  <summary>Data</summary>
                  <pre tabIndex={0} aria-label={`${c.name} data`}>{JSON.stringify(c.data, null, 2)}</pre>
                </details>
              </div>
            ))}
          </div>
        </>
      ) : null}
    </Page>
  );
}
