/**
 * The /api request pipeline, in order. Each stage is small and either passes, throws a WharfError,
 * or (OPTIONS) answers and stops. Authentication will be inserted before `resolve`.
 */
import { HTTP_METHODS } from '../contract/index.js';
import type { HttpMethod } from '../contract/index.js';
import { WharfError } from '../errors/wharf-error.js';
import { filesPathRefusal } from '../files/path-refusal.js';
import { parseApiPath } from '../routing/api-path.js';
import { requireEnabled, requireEnvironmentAllowed } from '../routing/endpoint-availability.js';
import { findEnvironment } from '../settings/environments.js';
import { isEnvironmentAllowed } from '../settings/load-settings.js';
import { STOP, needEnvironment, needMatch, needMethod } from './api-request.js';
import type { ApiRequestState, PipelineStage, StageOutcome } from './api-request.js';

function pathOf(url: string): string {
  return url.split('?')[0] ?? url;
}

/** `Allow` value for an endpoint: its methods in canonical order, HEAD with GET, then OPTIONS. */
export function allowHeader(methods: readonly HttpMethod[]): string {
  const allowed: string[] = [];
  for (const method of HTTP_METHODS) {
    if (!methods.includes(method)) continue;
    allowed.push(method);
    if (method === 'GET') allowed.push('HEAD');
  }
  allowed.push('OPTIONS');
  return allowed.join(', ');
}

function parseApiPathForFiles(url: string): ReturnType<typeof parseApiPath> {
  try {
    return parseApiPath(url);
  } catch (error) {
    if (error instanceof WharfError && error.code === 'ROUTING_INVALID_PATH_SEGMENT') throw filesPathRefusal(url, error);
    throw error;
  }
}

export const parseStage: PipelineStage = {
  name: 'parse',
  run(state) {
    const parsed = parseApiPathForFiles(state.request.url);
    if (parsed.env === null) {
      throw new WharfError('ROUTING_ROUTE_NOT_FOUND', { method: state.method, path: pathOf(state.request.url) });
    }
    state.envSegment = parsed.env;
    state.segments = parsed.segments;
  },
};

export const environmentStage: PipelineStage = {
  name: 'env',
  run(state) {
    const env = state.envSegment ?? '';
    if (!isEnvironmentAllowed(state.settings, env)) throw new WharfError('ROUTING_ENV_NOT_ALLOWED', { env });
    const environment = findEnvironment(state.settings.environments, env);
    if (!environment) throw new WharfError('ROUTING_ENV_NOT_CONFIGURED', { env });
    state.environment = environment;
  },
};

export const resolveStage: PipelineStage = {
  name: 'resolve',
  run(state) {
    const segments = state.segments ?? [];
    if (segments.length === 0) {
      throw new WharfError('ROUTING_ROUTE_NOT_FOUND', { method: state.method, path: pathOf(state.request.url) });
    }
    const match = state.routes.resolve(segments);
    if (!match) throw new WharfError('ROUTING_ENDPOINT_NOT_FOUND', { path: segments.join('/') });
    state.match = match;
  },
};

export const endpointEnvironmentStage: PipelineStage = {
  name: 'access',
  run(state) {
    const environment = needEnvironment(state);
    requireEnvironmentAllowed(needMatch(state).endpoint.model, environment.name, state.envSegment ?? environment.name);
  },
};

export const enabledStage: PipelineStage = {
  name: 'enabled',
  run(state) {
    requireEnabled(needMatch(state).endpoint.model, state.settings.server.server.disabledRetryAfterSeconds);
  },
};

export const methodStage: PipelineStage = {
  name: 'method',
  run(state) {
    const methods = needMatch(state).endpoint.route.methods;
    if (state.method === 'OPTIONS') {
      state.reply.code(204).header('allow', allowHeader(methods)).send();
      return STOP;
    }
    const effective = state.method === 'HEAD' ? 'GET' : state.method;
    if (!(methods as readonly string[]).includes(effective)) {
      throw new WharfError('ROUTING_METHOD_NOT_ALLOWED', { method: state.method }, { headers: { allow: allowHeader(methods) } });
    }
    return undefined;
  },
};

/** Media type without parameters, lower case: `Application/JSON; charset=utf-8` -> `application/json`. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

export const bodyStage: PipelineStage = {
  name: 'body',
  run(state) {
    const empty = state.request.wharfEmptyJson;
    if (empty) throw needMatch(state).endpoint.kind === 'webhook' ? new WharfError('WEBHOOK_BODY_NOT_JSON') : empty;
    if (state.method === 'QUERY' && mediaType(state.request.headers['content-type']) !== 'application/json') {
      throw new WharfError('REQUEST_QUERY_CONTENT_TYPE');
    }
  },
};

export const handlerStage: PipelineStage = {
  name: 'handler',
  // not an async function: a suspended async frame per request costs more than one .then
  run(state) {
    const match = needMatch(state);
    const result = state.handlers.dispatch({
      request: state.request,
      reply: state.reply,
      method: needMethod(state),
      environment: needEnvironment(state),
      endpoint: match.endpoint,
      target: match.target,
      routes: state.routes,
      settings: state.settings,
      timing: state.timing,
    });
    if (!isPromise(result)) {
      state.result = result;
      return undefined;
    }
    return result.then((value) => {
      state.result = value;
      return undefined;
    });
  },
};

/** The default order. Keep it a list: later areas insert their stage (authenticate before resolve). */
export const API_STAGES: readonly PipelineStage[] = [
  parseStage,
  environmentStage,
  resolveStage,
  endpointEnvironmentStage,
  enabledStage,
  methodStage,
  bodyStage,
  handlerStage,
];

function isPromise<T = StageOutcome>(value: unknown): value is Promise<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

/** Runs the stages in order (timed when Server-Timing is on); a synchronous stage is not awaited (no microtask hop). */
export function runPipeline(state: ApiRequestState, stages: readonly PipelineStage[]): Promise<typeof STOP | void> {
  return state.timing.enabled ? runTimed(state, stages) : runUntimed(state, stages);
}

async function runTimed(state: ApiRequestState, stages: readonly PipelineStage[]): Promise<typeof STOP | void> {
  const timing = state.timing;
  for (const stage of stages) {
    timing.start(stage.name);
    let outcome: StageOutcome | Promise<StageOutcome>;
    try {
      outcome = stage.run(state);
      if (isPromise(outcome)) outcome = await outcome;
    } finally {
      timing.end(stage.name);
    }
    if (outcome === STOP) return STOP;
  }
}

/**
 * runPipeline without Server-Timing (the default): no clock reads, no try/finally per stage, and
 * not an async function: a stage that answers with a promise (the handler) is one `.then`, with no
 * suspended frame and no await per request. A stage that throws is a rejection, as before.
 */
function runUntimed(state: ApiRequestState, stages: readonly PipelineStage[]): Promise<typeof STOP | void> {
  try {
    const outcome = runFrom(state, stages, 0);
    return isPromise(outcome) ? outcome : Promise.resolve(outcome);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The stages from `first` on: the outcome, or a promise of it once a stage answered with one. */
function runFrom(state: ApiRequestState, stages: readonly PipelineStage[], first: number): typeof STOP | void | Promise<typeof STOP | void> {
  for (let index = first; index < stages.length; index++) {
    const outcome = stages[index]!.run(state);
    if (isPromise(outcome)) return outcome.then((settled) => (settled === STOP ? STOP : runFrom(state, stages, index + 1)));
    if (outcome === STOP) return STOP;
  }
  return undefined;
}
