/**
 * The dashboard's calls to /ui/api on the sync host. Writes carry the session's CSRF token as
 * X-CSRF-Token (the API gives it to this page only, after sign-in); errors are the spec body
 * `{success:false, error}` and come back as Error with that text.
 */

export interface ObjectRow {
  readonly name: string;
  readonly stored_procedure_name: string | null;
  readonly last_version: number | null;
  readonly last_updated: string | null;
  readonly lag_seconds: number | null;
  readonly throughput_per_minute: number;
  readonly state: string;
  readonly dead_letters: number;
}

export interface DeadLetterRow {
  readonly id: number;
  readonly environment: string;
  readonly object: string;
  readonly destination: string;
  readonly from_version: number;
  readonly to_version: number;
  readonly status: string;
  readonly attempts: number;
  readonly next_attempt_at: string | null;
  readonly timestamp: string;
  readonly error: string;
}

export interface Overview {
  readonly timestamp: string;
  readonly environments: readonly { readonly name: string; readonly objects: readonly ObjectRow[] }[];
  readonly connections: Readonly<Record<string, { readonly is_healthy: boolean; readonly last_error: string | null }>>;
  readonly dead_letters: {
    readonly summary: {
      readonly TotalCount: number;
      readonly LastHourCount: number;
      readonly Last24HoursCount: number;
      readonly Last7DaysCount: number;
      readonly MostCommonError: string;
      readonly MostCommonErrorCount: number;
    };
    readonly items: readonly DeadLetterRow[];
  };
}

export interface Session {
  readonly configured: boolean;
  readonly signed_in: boolean;
  readonly csrf: string | null;
}

export async function call<T>(method: string, path: string, body?: unknown, csrf?: string | null): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (csrf) headers['x-csrf-token'] = csrf;
  const response = await fetch(`/ui/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await response.json().catch(() => null)) as (T & { error?: unknown }) | null;
  if (!response.ok) throw new Error(typeof json?.error === 'string' ? json.error : `The sync service answered ${response.status}.`);
  return json as T;
}
