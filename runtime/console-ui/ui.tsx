/** Small shared pieces of the console's pages: states, errors next to their cause, badges, dialogs. */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from './api.js';

export function Loading({ what }: { what: string }) {
  return <p class="muted" role="status" aria-live="polite">Loading {what}…</p>;
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

export function ErrorNote({ error, id }: { error: unknown; id?: string }) {
  if (!error) return null;
  const text = error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);
  return <p class="error" role="alert" id={id}>{text}</p>;
}

export function Badge({ status }: { status: string }) {
  const tone = /^(healthy|active|ok|true)$/i.test(status) ? 'good' : /^(degraded|warning|revoked)$/i.test(status) ? 'warn' : /^(unhealthy|error|false)$/i.test(status) ? 'bad' : 'plain';
  return <span class={`badge ${tone}`}>{status}</span>;
}

/** Load data from the API once (and again when `deps` change); `reload` refetches. */
export function useApi<T>(load: () => Promise<T>, deps: readonly unknown[] = []) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (d) => live && (setData(d), setError(null)),
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { data, error, reload: () => setTick((t) => t + 1) };
}

export function Field(props: { label: string; id: string; error?: string | null; hint?: string; badges?: ComponentChildren; children: ComponentChildren }) {
  return (
    <div class="field">
      {props.badges ? <div class="label-row"><label for={props.id}>{props.label}</label>{props.badges}</div> : <label for={props.id}>{props.label}</label>}
      {props.children}
      {props.hint ? <small id={`${props.id}-hint`} class="muted">{props.hint}</small> : null}
      {props.error ? <small id={`${props.id}-error`} class="error" role="alert">{props.error}</small> : null}
    </div>
  );
}

export function Page(props: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <h1 id="page-title" tabIndex={-1}>{props.title}</h1>
        {props.actions ? <div class="actions">{props.actions}</div> : null}
      </header>
      {props.children}
    </section>
  );
}
