/**
 * The server's own structured log (pino JSON lines), kept in memory for GET /ui/api/logs: the last
 * `capacity` entries (Logging:ConsoleBufferSize, default 2000), oldest dropped first. Lines are
 * kept as written (a ring of strings: no parsing on the request path) and parsed and redacted the
 * first time a query reads them: Wharf tokens, bearer values, connection strings and the first
 * administrator's one-time password never reach the console.
 */
import { Writable } from 'node:stream';
import { CONNECTION_STRING_MASK, SECRET_MASK } from '../settings/redact.js';

export const LOG_LEVEL_NAMES = ['Debug', 'Information', 'Warning', 'Error'] as const;
export type LogLevelName = (typeof LOG_LEVEL_NAMES)[number];

export interface LogEntry {
  /** ISO 8601 UTC with milliseconds. */
  readonly timestamp: string;
  readonly level: LogLevelName;
  readonly message: string;
  /** `http` (request lines), `console`, `health`, `gateway`. */
  readonly source: string;
}

const SECRET_PATTERNS: readonly [RegExp, string][] = [
  [/whf_[0-9a-f]{12}_[A-Za-z0-9_-]{43}/g, SECRET_MASK],
  [/(bearer\s+)\S+/gi, `$1${SECRET_MASK}`],
  [/(one-time password )\S+/gi, `$1${SECRET_MASK}`],
  [/[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@\S*/gi, CONNECTION_STRING_MASK],
  [/\b(password|pwd)\s*=\s*[^;\s]*/gi, `$1=${SECRET_MASK}`],
];

export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

export function levelName(level: number): LogLevelName {
  if (level >= 50) return 'Error';
  if (level >= 40) return 'Warning';
  if (level >= 30) return 'Information';
  return 'Debug';
}

function sourceOf(line: Record<string, unknown>): string {
  if (typeof line['source'] === 'string') return line['source'];
  if (line['req'] !== undefined || line['res'] !== undefined) return 'http';
  const message = String(line['msg'] ?? '');
  if (/console/i.test(message)) return 'console';
  if (/health/i.test(message)) return 'health';
  return 'gateway';
}

function messageOf(line: Record<string, unknown>): string {
  let message = String(line['msg'] ?? '');
  const req = line['req'] as { method?: string; url?: string } | undefined;
  const res = line['res'] as { statusCode?: number } | undefined;
  if (req?.method) message = `${message} ${req.method} ${req.url ?? ''}`;
  if (res?.statusCode) message = `${message} ${res.statusCode}`;
  const err = line['err'] as { message?: string } | undefined;
  if (err?.message) message = `${message}: ${err.message}`;
  return redactText(message);
}

export class LogRing extends Writable {
  /** Circular buffer: a raw JSON line until a query parses it, then its entry (null: not JSON). */
  private readonly slots: (string | LogEntry | null)[] = [];
  private next = 0;

  constructor(readonly capacity: number) {
    super();
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.take(chunk.toString());
    callback();
  }

  /** Keeps each non-blank line of `text` (called directly by tee(): no stream machinery per log line). */
  private take(text: string): void {
    // pino writes one line per call, ending in a newline
    const last = text.length - 1;
    if (last > 0 && text.charCodeAt(last) === 10 && text.indexOf('\n') === last && text.charCodeAt(0) === 123 /* { */) {
      this.push(text.slice(0, last));
      return;
    }
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      const line = end < 0 ? text.slice(start) : text.slice(start, end);
      if (line.trim() !== '') this.push(line);
      if (end < 0) break;
      start = end + 1;
    }
  }

  /** A stream for the logger: each line goes to `out` unchanged and into this ring. */
  tee(out: NodeJS.WritableStream): NodeJS.WritableStream {
    return {
      write: (chunk: string | Uint8Array) => {
        this.take(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
        return out.write(chunk);
      },
    } as NodeJS.WritableStream;
  }

  add(line: Record<string, unknown>): void {
    this.push(toEntry(line));
  }

  private push(slot: string | LogEntry): void {
    if (this.slots.length < this.capacity) this.slots.push(slot);
    else this.slots[this.next] = slot;
    this.next = (this.next + 1) % this.capacity;
  }

  private entryAt(index: number): LogEntry | null {
    const slot = this.slots[index];
    if (typeof slot !== 'string') return slot ?? null;
    let entry: LogEntry | null = null;
    try {
      entry = toEntry(JSON.parse(slot) as Record<string, unknown>);
    } catch {
      // not a JSON log line: ignored
    }
    this.slots[index] = entry;
    return entry;
  }

  /** Newest first, filtered by level (exact) and a case-insensitive text search in the message. */
  query(level: LogLevelName | null, search: string | null): LogEntry[] {
    const needle = search?.toLowerCase() ?? null;
    const out: LogEntry[] = [];
    const count = this.slots.length;
    for (let k = 1; k <= count; k++) {
      const entry = this.entryAt((this.next - k + count) % count);
      if (!entry) continue;
      if (level !== null && entry.level !== level) continue;
      if (needle !== null && !entry.message.toLowerCase().includes(needle)) continue;
      out.push(entry);
    }
    return out;
  }
}

function toEntry(line: Record<string, unknown>): LogEntry {
  const time = typeof line['time'] === 'number' ? line['time'] : Date.now();
  return {
    timestamp: new Date(time).toISOString(),
    level: levelName(typeof line['level'] === 'number' ? line['level'] : 30),
    message: messageOf(line),
    source: sourceOf(line),
  };
}
