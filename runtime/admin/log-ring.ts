/**
 * The server's own structured log (pino JSON lines), kept in memory for GET /ui/api/logs: the last
 * `capacity` entries (Logging:ConsoleBufferSize, default 2000), oldest dropped first. Each entry is
 * redacted on the way in: Wharf tokens, bearer values, connection strings and the first
 * administrator's one-time password never reach the buffer (and so never the console).
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
  private readonly entries: LogEntry[] = [];

  constructor(readonly capacity: number) {
    super();
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    for (const text of chunk.toString().split('\n')) {
      if (text.trim() === '') continue;
      try {
        this.add(JSON.parse(text) as Record<string, unknown>);
      } catch {
        // not a JSON log line: ignored
      }
    }
    callback();
  }

  add(line: Record<string, unknown>): void {
    const time = typeof line['time'] === 'number' ? line['time'] : Date.now();
    this.entries.push({
      timestamp: new Date(time).toISOString(),
      level: levelName(typeof line['level'] === 'number' ? line['level'] : 30),
      message: messageOf(line),
      source: sourceOf(line),
    });
    if (this.entries.length > this.capacity) this.entries.shift();
  }

  /** Newest first, filtered by level (exact) and a case-insensitive text search in the message. */
  query(level: LogLevelName | null, search: string | null): LogEntry[] {
    const needle = search?.toLowerCase() ?? null;
    const out: LogEntry[] = [];
    for (let index = this.entries.length - 1; index >= 0; index--) {
      const entry = this.entries[index]!;
      if (level !== null && entry.level !== level) continue;
      if (needle !== null && !entry.message.toLowerCase().includes(needle)) continue;
      out.push(entry);
    }
    return out;
  }
}
