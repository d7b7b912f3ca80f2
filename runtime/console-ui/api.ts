/**
 * The console's only way to the server: JSON calls to /ui/api with the session cookie, and the
 * CSRF header on every write (the value of the `gateway_csrf` cookie, as the API requires). Errors
 * come back as ApiError with the API's message and, for a 400, the field it names.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field: string | null,
  ) {
    super(message);
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function csrfCookie(): string {
  const match = /(?:^|;\s*)gateway_csrf=([^;]*)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1] ?? '') : '';
}

/** Listeners told when the session is gone (any 401), so the app shows the sign-in page. */
const signedOut = new Set<() => void>();
export function onSignedOut(listener: () => void): () => void {
  signedOut.add(listener);
  return () => signedOut.delete(listener);
}

function messageOf(status: number, body: Record<string, unknown> | null): string {
  if (!body) return `The server answered ${status}.`;
  const error = typeof body['error'] === 'string' ? body['error'] : '';
  const message = typeof body['message'] === 'string' ? body['message'] : '';
  if (status === 403 && error === 'Access denied') return 'Access denied: your account may not do this.';
  return message && message !== error ? (error ? `${error}: ${message}` : message) : error || `The server answered ${status}.`;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (WRITES.has(method)) headers['x-csrf-token'] = csrfCookie();
  const res = await fetch(`/ui/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const record = json && typeof json === 'object' ? (json as Record<string, unknown>) : null;
    if (res.status === 401 && !path.startsWith('/auth')) for (const l of signedOut) l();
    throw new ApiError(res.status, messageOf(res.status, record), record && typeof record['field'] === 'string' ? record['field'] : null);
  }
  return json as T;
}

/** The live event stream (SSE); `handler` gets each event's name and parsed data. */
export function subscribe(handler: (event: string, data: unknown) => void): () => void {
  const source = new EventSource('/ui/api/events');
  const names = ['health', 'endpoint_reload', 'token_created', 'token_revoked', 'environments_changed', 'settings_changed', 'log', 'traffic'];
  const listeners = names.map((name) => {
    const listener = (e: MessageEvent) => {
      let data: unknown = e.data;
      try {
        data = JSON.parse(String(e.data));
      } catch {
        // plain text data
      }
      handler(name, data);
    };
    source.addEventListener(name, listener as EventListener);
    return [name, listener] as const;
  });
  return () => {
    for (const [name, l] of listeners) source.removeEventListener(name, l as EventListener);
    source.close();
  };
}
