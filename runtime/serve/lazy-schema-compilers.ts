/**
 * Fastify loads its schema compilers (ajv through @fastify/ajv-compiler, fast-json-stringify) when
 * the server is created, whether a route uses a schema or not: about 50 ms of the cold start.
 * These factories load them the first time a route with a schema is compiled, with fastify's own
 * defaults, so behaviour is unchanged for routes that declare schemas.
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Selector = () => (...args: unknown[]) => unknown;

/** Resolves from fastify's own folder: its compilers are its dependencies, not ours. */
function fastifyRequire(): NodeRequire {
  const own = createRequire(import.meta.url);
  return createRequire(own.resolve('fastify'));
}

export function lazySchemaCompilers(): { compilersFactory: CompilersFactory } {
  return {
    compilersFactory: {
      buildValidator: ((...args: unknown[]) => (fastifyRequire()('@fastify/ajv-compiler') as Selector)()(...args)) as CompilersFactory['buildValidator'],
      buildSerializer: ((...args: unknown[]) => (fastifyRequire()('@fastify/fast-json-stringify-compiler') as Selector)()(...args)) as CompilersFactory['buildSerializer'],
    },
  };
}
