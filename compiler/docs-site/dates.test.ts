import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitDates, pageDate } from './dates.js';

describe('page dates', () => {
  it('prefers front matter, then git, then mtime', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wharf-dates-'));
    writeFileSync(join(dir, 'a.md'), 'x');
    const mtime = new Date('2024-03-04T05:06:07Z');
    utimesSync(join(dir, 'a.md'), mtime, mtime);
    const git = new Map([['a.md', '2025-01-01T00:00:00.000Z']]);
    expect(pageDate('a.md', dir, '2026-01-01T00:00:00.000Z', git)).toBe('2026-01-01T00:00:00.000Z');
    expect(pageDate('a.md', dir, null, git)).toBe('2025-01-01T00:00:00.000Z');
    expect(pageDate('a.md', dir, null, new Map())).toBe('2024-03-04T05:06:07.000Z');
    expect(gitDates(dir).size).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });
});
