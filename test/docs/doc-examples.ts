/**
 * The example commands of README.md and docs/*.md, as test/docs/examples.test.ts runs them.
 *
 * Convention (also for whoever writes docs):
 * - Fenced blocks tagged `sh`, `bash` or `console` are executable; untagged and `text` blocks are
 *   not (use them for syntax summaries and output). In a `console` block only lines starting with
 *   `$ ` are commands; in `sh`/`bash` every line that is not a `#` comment is one.
 * - A trailing `\` joins the next line; a trailing ` # ...` comment is not part of the command.
 * - Output shown next to a command is checked: a comment directly below it (or trailing it) that
 *   starts with an optional status and a JSON value, e.g. `# {"ok":true}` or `# 201 {"ok":true,...}`,
 *   continued on comment lines indented by two spaces. The status must match; the answer must have
 *   every key the shown JSON has (nested objects, the first element of arrays) and the same
 *   booleans; other values are illustrative. `...` stands for more of the same. Several such
 *   comments below one command are alternatives. Without a status, any 2xx/3xx passes.
 * - `NAME=...` on its own line names a placeholder the test sets (`TOKEN`, `T`); `npm start` is the
 *   demo the test starts, and a bare `npm install` the installation the suite runs in.
 * - Opt-outs sit in the fence's info string after the language, where GitHub and the docs site
 *   (both read only its first word) show nothing, and each names its reason:
 *   ```sh example: skip (reason)``` skips the block; ```sh example: skip "prefix" (reason)```
 *   skips the lines starting with `prefix` (several `skip "..." (...)` may follow one another,
 *   separated by `;`). A marker without a reason, or one that skips nothing, is itself reported.
 *   (Not an HTML comment: the docs site renders Markdown with `html: false`, so it would show.)
 */

export type ExampleKind = 'curl' | 'cli';

export interface ExpectedOutput {
  readonly status?: number;
  /** The JSON shown, parsed; undefined when only a status is shown. */
  readonly json?: unknown;
  readonly text: string;
}

export interface DocExample {
  readonly file: string;
  /** 1-based line of the command's first line. */
  readonly line: number;
  readonly command: string;
  readonly kind: ExampleKind;
  /** Alternatives; empty: any success. */
  readonly expected: readonly ExpectedOutput[];
  /** Index of the block within its file: commands of one block run in order. */
  readonly block: number;
}

export interface SkippedExample {
  readonly file: string;
  readonly line: number;
  readonly command: string;
  readonly reason: string;
}

export interface DocProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

export interface ExtractedExamples {
  readonly examples: DocExample[];
  readonly skipped: SkippedExample[];
  readonly problems: DocProblem[];
}

const EXECUTABLE = new Set(['sh', 'bash', 'console']);
const FENCE = /^\s*(```+|~~~+)\s*([\w-]*)\s*(.*)$/;
const MARKER = /^example:\s*(.*)$/;
const MARKER_BODY = /^skip(?:\s+"([^"]+)")?(?:\s+\((.+)\))?$/;
const OUTPUT = /^(?:(\d{3})\s*)?([[{].*)?$/;
/** A shell assignment whose value is a placeholder: `TOKEN=...`, `T='Authorization: Bearer whf_...'`. */
const PLACEHOLDER = /^[A-Z_][A-Z0-9_]*=\S*\.\.\.\S*$/;
/** Commands the environment of the test stands for (see the convention above). */
const PROVIDED = /^(npm install|npm start)(\s+&&\s+(npm install|npm start))*$/;

interface Marker {
  readonly line: number;
  readonly prefix?: string;
  readonly reason: string;
  used: boolean;
}

/** The code and the text after an unquoted ` #` (a shell comment); `open` when a quote is still open at the end. */
export function splitComment(line: string): { code: string; comment?: string; open: boolean } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1] as string))) {
      return { code: line.slice(0, i).trimEnd(), comment: line.slice(i + 1).trim(), open: false };
    }
  }
  return { code: line.trimEnd(), open: quote !== undefined };
}

/** `# 201 {"ok":true}` → { status: 201, json }; undefined when the comment is prose. */
export function parseOutput(text: string): ExpectedOutput | undefined {
  const withoutNote = text.replace(/\s+\([^()]*\)\s*$/, '').trim();
  const match = OUTPUT.exec(withoutNote);
  if (!match || (!match[1] && !match[2])) return undefined;
  const status = match[1] ? Number(match[1]) : undefined;
  if (!match[2]) return { status, text };
  // `...` inside a list or object stands for more of the same
  const json = match[2].replace(/,\s*\.\.\.(?=\s*[\]}])/g, '');
  try {
    return { status, json: JSON.parse(json), text };
  } catch {
    return undefined;
  }
}

function classify(command: string): ExampleKind {
  return /^curl\s/.test(command) ? 'curl' : 'cli';
}

export function extractExamples(file: string, markdown: string): ExtractedExamples {
  const lines = markdown.split('\n');
  const examples: DocExample[] = [];
  const skipped: SkippedExample[] = [];
  const problems: DocProblem[] = [];
  let markers: Marker[] = [];
  let block = -1;

  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i] as string);
    if (!fence) continue;
    // a fenced block: find its end
    const close = fence[1] as string;
    let end = i + 1;
    // CommonMark: the closing fence has at least as many of the same characters and no info string
    const closing = new RegExp(`^\\s*${close[0] === '`' ? '`' : '~'}{${close.length},}\\s*$`);
    while (end < lines.length && !closing.test(lines[end] as string)) end++;
    const lang = (fence[2] as string).toLowerCase();
    readMarkers(fence[3] as string, i + 1);
    if (EXECUTABLE.has(lang)) {
      block++;
      readBlock(lang, i + 1, end);
    }
    for (const m of markers) {
      if (!m.used) problems.push({ file, line: m.line, message: `example opt-out skips nothing${m.prefix ? ` (no line starts with "${m.prefix}")` : ' (not an sh, bash or console block)'}` });
    }
    i = end;
  }
  return { examples, skipped, problems };

  function readMarkers(info: string, line: number): void {
    markers = [];
    const marker = MARKER.exec(info.trim());
    if (!marker) return;
    for (const part of (marker[1] as string).split(/\s*;\s*(?=skip\b)/)) {
      const body = MARKER_BODY.exec(part.trim());
      if (!body) problems.push({ file, line, message: `unknown example marker '${part}' (expected: skip ["prefix"] (reason))` });
      else if (!body[2]) problems.push({ file, line, message: 'an example opt-out must name its reason: example: skip (reason)' });
      else markers.push({ line, prefix: body[1], reason: body[2], used: false });
    }
  }

  function readBlock(lang: string, from: number, to: number): void {
    const wholeBlock = markers.find((m) => m.prefix === undefined);
    let last: { example: DocExample; expected: ExpectedOutput[] } | undefined;
    let lastOutput: { expected: ExpectedOutput[]; index: number } | undefined;
    for (let i = from; i < to; i++) {
      let raw = lines[i] as string;
      const line = i + 1;
      if (lang === 'console') {
        if (!raw.startsWith('$ ')) continue;
        raw = raw.slice(2);
      }
      const trimmed = raw.trim();
      if (trimmed === '') {
        last = undefined;
        continue;
      }
      if (trimmed.startsWith('#')) {
        const comment = trimmed.replace(/^#/, '');
        // a continuation of the output shown above: `#  ...` (two spaces)
        if (lastOutput && /^ {2}/.test(comment)) {
          const joined = `${lastOutput.expected[lastOutput.index]?.text ?? ''} ${comment.trim()}`;
          const reparsed = parseOutput(joined);
          lastOutput.expected[lastOutput.index] = reparsed ?? { text: joined };
          continue;
        }
        const output = last ? parseOutput(comment.trim()) : undefined;
        if (last && output) {
          last.expected.push(output);
          lastOutput = { expected: last.expected, index: last.expected.length - 1 };
        } else if (last && /^\s*(\d{3}\s+)?[[{]/.test(comment)) {
          // looks like output but is not JSON yet: may continue below
          last.expected.push({ text: comment.trim() });
          lastOutput = { expected: last.expected, index: last.expected.length - 1 };
        } else {
          last = undefined;
          lastOutput = undefined;
        }
        continue;
      }
      // a command, possibly continued with a trailing backslash or an open quote
      let pending = raw;
      let endLine = i;
      for (;;) {
        const { code, comment, open } = splitComment(pending);
        if ((open || code.endsWith('\\')) && endLine + 1 < to) {
          endLine++;
          pending = open ? `${pending}\n${lines[endLine] as string}` : `${code.slice(0, -1).trimEnd()} ${(lines[endLine] as string).trim()}`;
          continue;
        }
        const joined = code.trim();
        const trailing = comment === undefined ? undefined : parseOutput(comment);
        i = endLine;
        const command = joined.trim();
        lastOutput = undefined;
        if (PLACEHOLDER.test(command) || PROVIDED.test(command)) {
          last = undefined;
          break;
        }
        const skip = wholeBlock ?? markers.find((m) => m.prefix !== undefined && command.startsWith(m.prefix));
        if (skip) {
          skip.used = true;
          skipped.push({ file, line, command, reason: skip.reason });
          last = undefined;
          break;
        }
        const expected: ExpectedOutput[] = trailing ? [trailing] : [];
        const example: DocExample = { file, line, command, kind: classify(command), expected, block };
        examples.push(example);
        last = { example, expected };
        if (trailing) lastOutput = { expected, index: 0 };
        break;
      }
    }
    // unparsed output shown below a command is an error in the docs, not silently ignored
    for (const example of examples) {
      for (const output of example.expected) {
        if (output.status === undefined && output.json === undefined && example.block === block) {
          problems.push({ file, line: example.line, message: `the output shown below the command is not JSON: ${output.text}` });
        }
      }
    }
  }
}

/** Where `actual` lacks a key of `shown`, or has another boolean; [] when it matches. */
export function shapeDifferences(shown: unknown, actual: unknown, at = '$'): string[] {
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array`];
    if (shown.length > 0 && actual.length > 0) return shapeDifferences(shown[0], actual[0], `${at}[0]`);
    return [];
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${at}: expected an object`];
    const out: string[] = [];
    for (const [key, value] of Object.entries(shown)) {
      if (!(key in actual)) out.push(`${at}.${key}: missing`);
      else out.push(...shapeDifferences(value, (actual as Record<string, unknown>)[key], `${at}.${key}`));
    }
    return out;
  }
  if (typeof shown === 'boolean' && actual !== shown) return [`${at}: expected ${shown}, got ${JSON.stringify(actual)}`];
  return [];
}
