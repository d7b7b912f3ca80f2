/** Every diagnostic code validation can emit: schema mapping plus each rule's declared codes. */
import { RULES } from './rules/index.js';
import { SCHEMA_CODES } from './schema-errors.js';

export const VALIDATION_CODES: readonly string[] = [...SCHEMA_CODES, ...RULES.flatMap((r) => r.codes)];
