/**
 * Test helper: reads a server-sent event stream over a real HTTP connection and parses it into
 * messages ({id, event, data} or {comment}); waitFor() resolves when a matching message arrives.
 */
import http from 'node:http';

export interface SseMessage {
  readonly id?: string;
  readonly event?: string;
  readonly data?: unknown;
  readonly comment?: string;
  readonly retry?: string;
}

export interface SseStream {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly messages: SseMessage[];
  waitFor(match: (message: SseMessage) => boolean): Promise<SseMessage>;
  /** Resolves when the server ends the stream (or the connection closes). */
  readonly ended: Promise<void>;
  close(): void;
}

function parseBlock(block: string): SseMessage | null {
  const message: Record<string, unknown> = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) message['comment'] = line.slice(1).trim();
    else {
      const index = line.indexOf(':');
      if (index < 0) continue;
      const field = line.slice(0, index);
      const value = line.slice(index + 1).trimStart();
      message[field] = field === 'data' ? JSON.parse(value) : value;
    }
  }
  return Object.keys(message).length === 0 ? null : (message as SseMessage);
}

export function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      const messages: SseMessage[] = [];
      const waiters: { match: (m: SseMessage) => boolean; resolve: (m: SseMessage) => void }[] = [];
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let index: number;
        while ((index = buffer.indexOf('\n\n')) >= 0) {
          const message = parseBlock(buffer.slice(0, index));
          buffer = buffer.slice(index + 2);
          if (!message) continue;
          messages.push(message);
          for (const waiter of [...waiters]) {
            if (waiter.match(message)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(message);
            }
          }
        }
      });
      response.on('error', () => undefined);
      const ended = new Promise<void>((done) => response.once('close', () => done()));
      resolve({
        ended,
        status: response.statusCode ?? 0,
        headers: response.headers,
        messages,
        waitFor: (match) => {
          const found = messages.find(match);
          if (found) return Promise.resolve(found);
          return new Promise((done) => waiters.push({ match, resolve: done }));
        },
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}
