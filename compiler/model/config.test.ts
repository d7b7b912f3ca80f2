/**
 * One type for entity.json: the compiler's config types are the ones the build generates from
 * schemas/ (generated/types/config.ts), read-only; checked by the typecheck (`npm run typecheck`),
 * so a hand-written type that drifts from the schemas no longer compiles.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { SqlEndpointConfig } from '../../generated/types/config.js';
import type { CommonConfig, SqlConfig } from './config.js';

describe('entity.json types', () => {
  it('are the generated ones, read-only', () => {
    // the schema's minItems: 1 is a non-empty tuple in the generated type (a hand type said string[])
    expectTypeOf<SqlConfig['AllowedColumns']>().toEqualTypeOf<readonly [string, ...string[]]>();
    expectTypeOf<SqlConfig['DatabaseObjectType']>().toEqualTypeOf<SqlEndpointConfig['DatabaseObjectType']>();
    expectTypeOf<keyof SqlConfig>().toEqualTypeOf<keyof SqlEndpointConfig>();
    expectTypeOf<CommonConfig>().toHaveProperty('AllowedEnvironments');
  });
});
