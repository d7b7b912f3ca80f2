/**
 * The state of one /api request as it moves through the stages. Each stage reads what earlier
 * stages filled in (the `need*` accessors fail loudly when a stage was left out of the list).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HandlerRegistry } from '../handlers/registry.js';
import type { ApiMethod } from '../handlers/handler-context.js';
import type { RouteMatch, RouteTable } from '../routing/route-table.js';
import type { EnvironmentConfig } from '../settings/environments.js';
import type { Settings } from '../settings/load-settings.js';
import type { ServerTiming } from './server-timing.js';

export interface ApiRequestState {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** Upper-case request method (GET, HEAD, QUERY, MERGE, OPTIONS, ...). */
  readonly method: string;
  readonly settings: Settings;
  /** Taken once when the request starts; a later swap does not change it. */
  readonly routes: RouteTable;
  readonly handlers: HandlerRegistry;
  readonly timing: ServerTiming;
  envSegment?: string;
  segments?: readonly string[];
  environment?: EnvironmentConfig;
  match?: RouteMatch;
  /** What the handler returned (the response payload). */
  result?: unknown;
}

/** A stage finishes the request early (e.g. OPTIONS) by sending through the reply and returning STOP. */
export const STOP = Symbol('stop');
export type StageOutcome = void | typeof STOP;

export interface PipelineStage {
  /** Also the Server-Timing entry name. */
  readonly name: string;
  run(state: ApiRequestState): StageOutcome | Promise<StageOutcome>;
}

function missing(what: string): Error {
  return new Error(`Pipeline stage order: ${what} is not set yet (a stage is missing or out of order).`);
}

export function needEnvironment(state: ApiRequestState): EnvironmentConfig {
  if (!state.environment) throw missing('environment');
  return state.environment;
}

export function needMatch(state: ApiRequestState): RouteMatch {
  if (!state.match) throw missing('match');
  return state.match;
}

export function needMethod(state: ApiRequestState): ApiMethod {
  return state.method as ApiMethod;
}
