/**
 * The server's own structured log (pino JSON lines), kept in memory for GET /ui/api/logs: the last
 * `capacity` entries (Logging:ConsoleBufferSize, default 2000), oldest dropped first. Lines are
 * kept as written (UTF-8 bytes in one buffer: no parsing and no JS object on the request path) and
 * parsed and redacted the first time a query reads them: Wharf tokens, bearer values, connection
 * strings and the first administrator's one-time password never reach the console. Credential
 * query parameters of request URLs are redacted before the line is written (logging/redact-url.ts).
 */
import { Writable } from 'node:stream';
import { CONNECTION_STRING_MASK, SECRET_MASK, URL_WITH_CREDENTIALS } from '../settings/redact.js';

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
  // a URL with user information (`user:pass@`, `:pass@`, `token@`), as redact() judges it
  [new RegExp(`${URL_WITH_CREDENTIALS.source}\\S*`, 'gi'), CONNECTION_STRING_MASK],
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

/** Bytes each entry has in the ring's buffer; a longer line is kept as a string instead. */
export const SLOT_BYTES = 1024;

export class LogRing extends Writable {
  /**
   * The lines as UTF-8, one fixed slot of SLOT_BYTES each (Buffer memory is outside the JS heap and
   * allocated untouched: pages count once written). Strings kept for 2,000 requests outlived every
   * young-generation collection, so each request line was copied into the old generation and freed
   * only by a full collection: about 7 µs of CPU per request under load (docs/performance.md).
   */
  private readonly bytes: Buffer;
  private readonly lengths: Int32Array;
  /** A line longer than its slot, kept as written (rare: error stacks). */
  private readonly long: (string | undefined)[];
  /** The entry parsed by a query (undefined: not yet; null: not a JSON line). */
  private readonly parsed: (LogEntry | null | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    super();
    this.bytes = Buffer.allocUnsafeSlow(capacity * SLOT_BYTES);
    this.lengths = new Int32Array(capacity);
    this.long = new Array<string | undefined>(capacity).fill(undefined);
    this.parsed = new Array<LogEntry | null | undefined>(capacity).fill(undefined);
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
      this.push(text, last);
      return;
    }
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      const line = end < 0 ? text.slice(start) : text.slice(start, end);
      if (line.trim() !== '') this.push(line, line.length);
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

  /** Stores the first `length` characters of `text` as the newest entry. */
  private push(text: string, length: number): void {
    const slot = this.next;
    const line = length === text.length ? text : text.slice(0, length);
    // a UTF-8 write stops before a character that does not fit: with 4 bytes to spare, nothing was cut
    const written = this.bytes.write(line, slot * SLOT_BYTES, SLOT_BYTES, 'utf8');
    const whole = length * 3 <= SLOT_BYTES || written <= SLOT_BYTES - 4 || Buffer.byteLength(line) === written;
    this.lengths[slot] = whole ? written : 0;
    this.long[slot] = whole ? undefined : line;
    this.parsed[slot] = undefined;
    this.next = (slot + 1) % this.capacity;
    if (this.count < this.capacity) this.count += 1;
  }

  private entryAt(slot: number): LogEntry | null {
    const known = this.parsed[slot];
    if (known !== undefined) return known;
    const text = this.long[slot] ?? this.bytes.toString('utf8', slot * SLOT_BYTES, slot * SLOT_BYTES + this.lengths[slot]!);
    let entry: LogEntry | null = null;
    try {
      entry = toEntry(JSON.parse(text) as Record<string, unknown>);
    } catch {
      // not a JSON log line: ignored
    }
    this.parsed[slot] = entry;
    return entry;
  }

  /** Newest first, filtered by level (exact) and a case-insensitive text search in the message. */
  query(level: LogLevelName | null, search: string | null): LogEntry[] {
    const needle = search?.toLowerCase() ?? null;
    const out: LogEntry[] = [];
    const capacity = this.capacity;
    for (let k = 1; k <= this.count; k++) {
      const entry = this.entryAt((this.next - k + capacity) % capacity);
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
