// Module hooks for record-modules.mjs: append each resolved URL to the file.
import { appendFileSync } from 'node:fs';

let file;
export function initialize(data) {
  file = data.file;
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(file, `${result.url}\n`);
  return result;
}
