/**
 * POST /endpoints/{type}/validate  {content, name?, namespace?} -> {valid, errors, warnings, diagnostics}
 * The verdict and messages of `wharf check` for that entity.json at endpoints/<TypeFolder>/<namespace>/<name>/
 * in this project (the other endpoints read from disk; nothing is written). The rules come from
 * .wharf/dist/validator/validator.mjs, the compiler's single-file validation that `wharf build`
 * bundles beside the compiled runtime (scripts/runtime-dist.mjs), loaded here at the first call: the
 * runtime never imports compiler/ (docs/console-api.md).
 *   {type}: sql | proxy | composite | static | files (file) | webhooks (webhook); else 400 "Unknown endpoint type: X"
 *   content: an object (the console's body limit: nested deeper than 64 levels, 400), or a string
 *            holding JSON (syntax errors, nesting beyond the build's 100 levels included, are
 *            reported as the build reports them: 200 with valid false)
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { ValidatorBundle } from '../contract/manifest.js';
import { WharfError } from '../errors/wharf-error.js';
import { badRequest } from './console-errors.js';

export const TYPE_FOLDER_OF: Readonly<Record<string, string>> = {
  sql: 'SQL',
  proxy: 'Proxy',
  composite: 'Proxy',
  static: 'Static',
  files: 'Files',
  file: 'Files',
  webhooks: 'Webhooks',
  webhook: 'Webhooks',
};

const SEGMENT = /^(?!\.\.?$)[^/\\\u0000]{1,200}$/;

const HERE = fileURLToPath(import.meta.url);
const COMPILED = `${path.sep}.wharf${path.sep}dist${path.sep}runtime${path.sep}`;
/**
 * This Wharf's .wharf/dist/validator/validator.mjs, from the sources (runtime/admin/) or from the
 * compiled runtime (.wharf/dist/runtime/admin/).
 */
export const VALIDATOR_BUNDLE = HERE.includes(COMPILED)
  ? path.resolve(HERE, '../../../validator/validator.mjs')
  : path.resolve(HERE, '../../../.wharf/dist/validator/validator.mjs');
const SHOWN = '.wharf/dist/validator/validator.mjs';

/** Loads the validator bundle once per version of the file (a rebuild is picked up). */
export class ValidatorLoader {
  private loaded: { mtimeMs: number; bundle: Promise<ValidatorBundle> } | null = null;

  constructor(private readonly file: string) {}

  async get(): Promise<ValidatorBundle> {
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(this.file)).mtimeMs;
    } catch {
      throw new WharfError('CONSOLE_VALIDATOR_MISSING', { reason: `${SHOWN} is missing` });
    }
    if (!this.loaded || this.loaded.mtimeMs !== mtimeMs) {
      const bundle = import(`${pathToFileURL(this.file).href}?v=${mtimeMs}`) as Promise<ValidatorBundle>;
      this.loaded = { mtimeMs, bundle };
      bundle.catch(() => {
        this.loaded = null;
      });
    }
    try {
      return await this.loaded.bundle;
    } catch (error) {
      throw new WharfError('CONSOLE_VALIDATOR_MISSING', { reason: `${SHOWN} could not be loaded` }, { cause: error });
    }
  }
}

function location(body: Record<string, unknown>): { folders: string[]; name: string } {
  const name = body['name'] ?? 'NewEndpoint';
  if (typeof name !== 'string' || !SEGMENT.test(name)) throw badRequest('name must be a folder name (no / or \\, not . or ..)', 'name');
  const namespace = body['namespace'] ?? '';
  if (typeof namespace !== 'string') throw badRequest('namespace must be a string such as Sales/Reports', 'namespace');
  const folders = namespace.split('/').filter((part) => part !== '');
  if (!folders.every((folder) => SEGMENT.test(folder))) throw badRequest('namespace must be folder names separated by /', 'namespace');
  return { folders, name };
}

export function validateRoute(app: FastifyInstance, options: { readonly generatedDir: string }): void {
  const loader = new ValidatorLoader(VALIDATOR_BUNDLE);
  const root = path.dirname(options.generatedDir);

  app.post('/endpoints/:type/validate', async (request) => {
    const type = (request.params as { type: string }).type;
    // own keys only: `__proto__` or `constructor` would find Object's and crash the validator (500)
    const typeFolder = Object.hasOwn(TYPE_FOLDER_OF, type.toLowerCase()) ? TYPE_FOLDER_OF[type.toLowerCase()] : undefined;
    if (typeFolder === undefined) throw badRequest(`Unknown endpoint type: ${type}`);
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The body must be a JSON object with content');
    const record = body as Record<string, unknown>;
    const content = record['content'];
    if (content === undefined || content === null) throw badRequest('content is required', 'content');
    // a string is judged as `wharf check` judges the file: nested deeper than the build's limit, it is
    // the json-syntax diagnostic (the validator scans its depth before parsing: compiler/json-text.ts)
    const text = typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`;
    const { folders, name } = location(record);
    const validator = await loader.get();
    const diagnostics = await validator.validateEntityText(root, { typeFolder, folders, name }, text);
    const errors = diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
    const warnings = diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message);
    return { valid: errors.length === 0, errors, warnings, diagnostics };
  });
}
