/**
 * One table (compiler/cli/commands.ts) lists every command and option: `wharf --help` is generated
 * from it, and the README's Commands table and docs/cli.md must equal what it renders.
 * UPDATE_GOLDEN=1 rewrites the README table and the docs page sections; review the diff.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandsTable, NPM_ONLY, OPTIONS, usage } from '../../compiler/cli/commands.js';
import { REPO_ROOT } from '../support/project.js';

const run = promisify(execFile);
const update = process.env['UPDATE_GOLDEN'] === '1';
const README = path.join(REPO_ROOT, 'README.md');
const DOCS = path.join(REPO_ROOT, 'docs/cli.md');

/** The text between `start` and the next line starting with `end` (exclusive). */
function section(text: string, start: string, end: RegExp): { before: string; body: string; after: string } {
  const from = text.indexOf(start);
  if (from < 0) throw new Error(`'${start}' not found`);
  const bodyStart = from + start.length;
  const rest = text.slice(bodyStart);
  const match = end.exec(rest);
  const bodyEnd = bodyStart + (match ? match.index : rest.length);
  return { before: text.slice(0, bodyStart), body: text.slice(bodyStart, bodyEnd), after: text.slice(bodyEnd) };
}

function checkSection(file: string, start: string, end: RegExp, want: string): void {
  const text = readFileSync(file, 'utf8');
  const part = section(text, start, end);
  if (update) return writeFileSync(file, part.before + want + part.after);
  expect(part.body, `${path.relative(REPO_ROOT, file)} is out of step with compiler/cli/commands.ts (UPDATE_GOLDEN=1 rewrites it)`).toBe(want);
}

describe('the commands table', () => {
  it('is the README Commands table', () => {
    checkSection(README, '## Commands\n', /^## /m, `\n${commandsTable()}\n\n`);
  });

  it('is the docs/cli.md table and help text', () => {
    checkSection(DOCS, '<!-- commands-table -->\n', /^<!-- \/commands-table -->/m, `${commandsTable()}\n`);
    checkSection(DOCS, '<!-- wharf-help -->\n', /^<!-- \/wharf-help -->/m, `\`\`\`text\n${usage()}\`\`\`\n`);
  });

  it('wharf --help prints it, naming every command and option', async () => {
    const { stdout } = await run(process.execPath, [path.join(REPO_ROOT, 'scripts/wharf.mjs'), '--help']);
    expect(stdout).toBe(`${usage()}\n`);
    for (const command of COMMANDS) expect(stdout).toContain(`\n  ${command.usage[0]}`);
    for (const option of Object.values(OPTIONS)) expect(stdout).toContain(option.flag);
    for (const name of ['token', 'docs', 'check', 'watch', 'dev', 'start', 'build']) expect(stdout).toMatch(new RegExp(`\\n  ${name}\\b`));
  });

  it('names only npm scripts that package.json has', () => {
    const scripts = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const named = [...COMMANDS.flatMap((c) => (c.npm ? [c.npm] : [])), ...NPM_ONLY.map((s) => s.npm)];
    for (const npm of named) expect(Object.keys(scripts)).toContain(npm.replace(/^npm (run )?/, ''));
  });
});
