import { api } from '../api.js';
import { Badge, ErrorNote, Loading, Page, useApi } from '../ui.js';

interface Check {
  readonly name: string;
  readonly status: string;
  readonly description: string;
  readonly duration: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly tags: readonly string[];
}
interface Details {
  readonly status: string;
  readonly timestamp: string;
  readonly checks: readonly Check[];
  readonly totalDuration: string;
  readonly version: string;
}

export function HealthPage(props: { health: string }) {
  const { data, error } = useApi(() => api<Details>('GET', '/health'), [props.health]);
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
                <pre tabIndex={0} aria-label={`${c.name} data`}>{JSON.stringify(c.data, null, 2)}</pre>
              </div>
            ))}
          </div>
        </>
      ) : null}
    </Page>
  );
}
