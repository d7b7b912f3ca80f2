/** The endpoint folder name is a route segment too, so it obeys the namespace segment rule. */
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';
import { SEGMENT } from './naming.js';

export const endpointNameRule: EntityRule = {
  name: 'endpoint-name',
  scope: 'entity',
  codes: ['endpoint-name'],
  evenIfSchemaInvalid: true,
  check(ctx) {
    if (SEGMENT.test(ctx.name)) return [];
    return [
      error(
        ctx,
        'endpoint-name',
        '',
        `Endpoint name '${ctx.name}' must start with a letter and contain only letters, numbers, and underscores`,
        { wholeFile: true, hint: 'The endpoint name is the name of the folder that holds entity.json; rename the folder.' },
      ),
    ];
  },
};
