/** The `$schema` line points at the schema of the entity's own type (else the editor misleads). */
import { SCHEMA_FILE } from '../schema-store.js';
import { KIND_LABEL } from '../kind-label.js';
import { warning } from '../report.js';
import type { EntityRule } from '../rule.js';

export const schemaReferenceRule: EntityRule = {
  name: 'schema-reference',
  scope: 'entity',
  codes: ['schema-reference'],
  evenIfSchemaInvalid: true,
  check(ctx) {
    const ref = ctx.config.$schema;
    if (typeof ref !== 'string') return [];
    const expected = SCHEMA_FILE[ctx.kind];
    const file = ref.split(/[\\/]/).pop() ?? '';
    if (file === expected) return [];
    return [
      warning(ctx, 'schema-reference', '/$schema', `$schema names '${file}' but this is a ${KIND_LABEL[ctx.kind]} endpoint`, {
        hint: `Point $schema at schemas/${expected} for completion and checks in editors.`,
      }),
    ];
  },
};
