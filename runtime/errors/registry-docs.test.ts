/** Keeps docs/errors.md in step with the registry: every code listed once, with its status and message. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_AREAS, ERROR_REGISTRY } from './registry.js';
import type { ErrorCode } from './registry.js';

const DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/errors.md');

interface DocRow {
  readonly code: string;
  readonly status: number;
  readonly message: string;
}

function documentedRows(): DocRow[] {
  const rows: DocRow[] = [];
  for (const line of readFileSync(DOC, 'utf8').split('\n')) {
    const match = /^\|\s*`([A-Z0-9_]+)`\s*\|\s*(\d{3})\s*\|\s*`(.*)`\s*\|/.exec(line);
    if (match) rows.push({ code: match[1]!, status: Number(match[2]), message: match[3]!.replaceAll('\\|', '|') });
  }
  return rows;
}

describe('docs/errors.md', () => {
  const rows = documentedRows();
  const codes = Object.keys(ERROR_REGISTRY) as ErrorCode[];

  it('lists every registry code with its status and message', () => {
    const want = codes.map((code) => ({
      code,
      status: ERROR_REGISTRY[code].status,
      message: ERROR_REGISTRY[code].message,
    }));
    expect([...rows].sort((a, b) => a.code.localeCompare(b.code))).toEqual(
      want.sort((a, b) => a.code.localeCompare(b.code)),
    );
  });

  it('codes are named after their area', () => {
    for (const code of codes) {
      expect(code.startsWith(`${ERROR_REGISTRY[code].area.toUpperCase()}_`), code).toBe(true);
    }
    expect(new Set(codes.map((code) => ERROR_REGISTRY[code].area))).toEqual(new Set(ERROR_AREAS));
  });
});
