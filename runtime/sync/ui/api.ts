/**
 * The dashboard's calls to /ui/api on the sync host. Writes carry the session's CSRF token as
 * X-CSRF-Token (the API gives it to this page only, after sign-in); errors are the spec body
 * `{success:false, error}` and come back as Error with that text.
 */
export type { DeadLetterRow, ObjectRow, Overview, Session } from './wire.js';

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
