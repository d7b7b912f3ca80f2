/**
 * Static content read from disk once per version: the file is stat'ed per request and read and
 * parsed again only when its size or modification time changed (a rebuilt or edited content file
 * is picked up without a restart). Parsing happens on the first filtered request. When an edited
 * file no longer parses, the last content that did keeps answering (and a warning is logged).
 */
import fs from 'node:fs/promises';
import type { StaticDataset, StaticFormat } from '../contract/static-content.js';
import { WharfError } from '../errors/wharf-error.js';

interface Entry {
  readonly size: number;
  readonly mtimeMs: number;
  readonly dataset: StaticDataset;
}

export class StaticContentCache {
  readonly #entries = new Map<string, Entry>();
  readonly #onStale: ((file: string, reason: string) => void) | undefined;

  constructor(onStale?: (file: string, reason: string) => void) {
    this.#onStale = onStale;
  }

  async dataset(file: string, displayName: string, format: StaticFormat): Promise<{ dataset: StaticDataset; version: { size: number; mtimeMs: number } }> {
    let stats;
    try {
      stats = await fs.stat(file);
    } catch (error) {
      throw new WharfError('STATIC_CONTENT_UNAVAILABLE', { file: displayName, reason: (error as NodeJS.ErrnoException).code ?? 'unreadable' });
    }
    const cached = this.#entries.get(file);
    if (cached && cached.size === stats.size && cached.mtimeMs === stats.mtimeMs) {
      return { dataset: cached.dataset, version: cached };
    }
    const text = await fs.readFile(file, 'utf8');
    // loaded on first use: a gateway without Static content never loads csv-parse or fast-xml-parser
    const { parseStaticContent } = await import('../contract/static-content.js');
    const parsed = parseStaticContent(text, format);
    if (!parsed.ok && cached) {
      // a broken save (the build reports it): keep answering from the last content that parsed
      this.#onStale?.(displayName, parsed.error.message);
      return { dataset: cached.dataset, version: cached };
    }
    if (!parsed.ok) {
      const where = parsed.error.line === null ? '' : ` (line ${parsed.error.line}${parsed.error.column === null ? '' : `, column ${parsed.error.column}`})`;
      throw new WharfError('STATIC_CONTENT_UNAVAILABLE', { file: displayName, reason: `${parsed.error.message}${where}` });
    }
    const entry = { size: stats.size, mtimeMs: stats.mtimeMs, dataset: parsed.dataset };
    this.#entries.set(file, entry);
    return { dataset: entry.dataset, version: entry };
  }
}
