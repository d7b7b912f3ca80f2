/**
 * The JSON of the sync dashboard's API (/ui/api/*): written by runtime/sync/web/dashboard-routes.ts,
 * read by this page. Types only, so both the server and the browser bundle import it.
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
