/**
 * A key written twice in one JSON object of an entity.json (compiler/json-duplicate-keys.ts, which
 * the settings and sync files use too). Reported at the second key's line and column; runs on
 * schema-invalid entities too (the duplicate may be why).
 */
import { parseTree } from 'jsonc-parser';
import type { Diagnostic } from '../../diagnostics.js';
import { DUPLICATE_KEY_HINT, duplicateKeyMessage, duplicateKeys } from '../../json-duplicate-keys.js';
import { lineIndex } from '../../parse.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

export const duplicateKeysRule: EntityRule = {
  name: 'duplicate-keys',
  scope: 'entity',
  codes: ['duplicate-key'],
  evenIfSchemaInvalid: true,
  check(ctx) {
    const text = ctx.parsed.text;
    const position = lineIndex(text);
    return duplicateKeys(parseTree(text, [], { disallowComments: true, allowTrailingComma: false })).map((d): Diagnostic => ({
      ...error(ctx, 'duplicate-key', d.ptr, duplicateKeyMessage(d.key, position(d.firstOffset).line), { hint: DUPLICATE_KEY_HINT }),
      ...position(d.offset),
    }));
  },
};
