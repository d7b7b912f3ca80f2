/**
 * GET /logs?page&limit&level&search -> {page, total_pages, logs: [{timestamp, level, message, source}]}
 * Newest first; page from 1, limit 1..100 (default 50), level one of Debug, Information, Warning,
 * Error (exact), search: case-insensitive text in the message. Each at most once (else 400).
 * Message and source are answered with control, format and separator characters written as
 * escapes (contract/unprintable.ts): a logged U+202E (a "Trojan Source" bidi override) or a newline
 * shows as the text `\u202e` / `\n` in the console instead of reordering or splitting the line.
 * The kept lines are not changed, and the search runs on them as written.
 */
import type { FastifyInstance } from 'fastify';
import { escapeUnprintable } from '../contract/unprintable.js';
import { badRequest } from './console-errors.js';
import { LOG_LEVEL_NAMES } from './log-ring.js';
import type { LogEntry, LogLevelName, LogRing } from './log-ring.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

/** A query parameter given once; `?level=a&level=b` (an array to fastify's parser) is a 400, not a 500. */
function single(query: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const raw = query[name];
  if (Array.isArray(raw)) throw badRequest(`${name} given more than once`, name);
  return raw;
}

function positive(raw: string | undefined, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) throw badRequest(`${name} must be a whole number from 1 to ${max}`, name);
  return Number(raw);
}

const shown = (entry: LogEntry): LogEntry => ({ ...entry, message: escapeUnprintable(entry.message), source: escapeUnprintable(entry.source) });

export function logsRoute(app: FastifyInstance, ring: LogRing): void {
  app.get('/logs', async (request) => {
    const query = request.query as Record<string, string | string[] | undefined>;
    const page = positive(single(query, 'page'), 'page', 1, 1_000_000);
    const limit = positive(single(query, 'limit'), 'limit', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const levelRaw = single(query, 'level');
    const level = levelRaw === undefined || levelRaw === '' ? null : LOG_LEVEL_NAMES.find((name) => name.toLowerCase() === levelRaw.toLowerCase());
    if (level === undefined) throw badRequest(`level must be one of ${LOG_LEVEL_NAMES.join(', ')}`, 'level');
    const searchRaw = single(query, 'search');
    const search = searchRaw === undefined || searchRaw === '' ? null : searchRaw;
    const matches = ring.query(level as LogLevelName | null, search);
    const totalPages = Math.max(1, Math.ceil(matches.length / limit));
    return { page, total_pages: totalPages, logs: matches.slice((page - 1) * limit, page * limit).map(shown) };
  });
}
