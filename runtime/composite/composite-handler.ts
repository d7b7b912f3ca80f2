/**
 * The Composite endpoint handler (POST; the method stage answers 405 to anything else, QUERY
 * included). Steps run in order; each step's input and templates are resolved against the request
 * body and the results so far; an array step calls its endpoint once per element (at most
 * Proxy:CompositeMaxArrayItems elements, checked for every step before the first runs;
 * Proxy:CompositeArrayConcurrency at a time). A step endpoint with `Enabled` false (503) or not
 * allowed in the environment (400) refuses the request before any step runs. No step call outlives its request: when the response
 * closes (the handler timeout's 503, the shutdown cut-off, a client that went away) no further call
 * starts and those in flight are aborted. Input problems -> 422 with details. A failed step stops the flow: its status
 * (upstream 4xx as is, unreachable 502, timeout 504) with the step name, the completed steps and a
 * traceId. Success: 200 {success: true, stepResults}; the referenced endpoints' ResponseTransforms
 * apply to the final response only, so data between steps stays complete.
 */
import { randomUUID } from 'node:crypto';
import type { CompositeStep, ProxyEndpoint } from '../contract/model.js';
import type { EndpointHandler, HandlerContext } from '../handlers/handler-context.js';
import { formatErrorMessage } from '../errors/registry.js';
import { WharfError } from '../errors/wharf-error.js';
import type { ErrorDetail } from '../errors/wharf-error.js';
import { upstreamRequestOf } from '../proxy/proxy-handler.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';
import { transformBody } from '../transforms/response-transforms.js';
import { requireEnabled, requireEnvironmentAllowed } from '../routing/endpoint-availability.js';
import { boundedMap } from './bounded-map.js';
import { callStep } from './step-call.js';
import { stepRequestBase } from './step-authorization.js';
import type { StepBudget, StepCallResult, StepRequestBase } from './step-call.js';
import { arrayLimitProblems, stepInput } from './step-input.js';
import type { TemplateContext } from './templates.js';

type JsonObject = Record<string, unknown>;

function targetOf(ctx: HandlerContext<'composite'>, step: CompositeStep): ProxyEndpoint {
  const target = ctx.routes.byId(step.targetId);
  if (!target || target.kind !== 'proxy') throw new Error(`Composite step '${step.name}': ${step.targetId} is not a loaded Proxy endpoint`);
  return target.model;
}

function requestBody(ctx: HandlerContext<'composite'>): JsonObject {
  const body = ctx.request.body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && !Buffer.isBuffer(body)) return body as JsonObject;
  throw new WharfError('COMPOSITE_VALIDATION_FAILED', undefined, {
    details: [{ field: 'body', message: 'The request body must be a JSON object (Content-Type: application/json)' }],
  });
}

/**
 * Aborts when the response closes, finished or not: after a 503 from the handler timeout or a
 * client that went away, the rest of the flow is work nobody receives.
 */
function requestEnded(ctx: HandlerContext<'composite'>): AbortController {
  const ended = new AbortController();
  ctx.reply.raw.once('close', () => ended.abort(new DOMException('The request ended before the composite flow did.', 'AbortError')));
  return ended;
}

/** The response closed before the flow ended: log how far it got; the reply is already handled. */
function abandoned(ctx: HandlerContext<'composite'>, completed: readonly string[]): unknown {
  ctx.request.log.info({ event: 'composite.abandoned', traceId: String(ctx.request.id), completedSteps: completed }, 'composite flow stopped: its request ended');
  return ctx.reply;
}

export function createCompositeHandler(client: UpstreamClient): EndpointHandler<'composite'> {
  return async (ctx) => {
    const body = requestBody(ctx);
    // a step endpoint switched off, or limited to other environments, is refused as a direct call
    // would be, before any step runs
    for (const step of ctx.endpoint.model.steps) {
      const target = targetOf(ctx, step);
      requireEnvironmentAllowed(target, ctx.environment.name, ctx.environment.name);
      requireEnabled(target, ctx.settings.server.server.disabledRetryAfterSeconds);
    }
    const tooMany = arrayLimitProblems(ctx.endpoint.model.steps, body, client.settings.compositeMaxArrayItems);
    if (tooMany.length > 0) throw new WharfError('COMPOSITE_VALIDATION_FAILED', undefined, { details: tooMany });
    const request = ctx.request;
    const ended = requestEnded(ctx);
    const { method: _m, body: _b, target: _t, query: _q, clientHeaders: _h, ...base } = upstreamRequestOf(ctx, ended.signal);
    const stepBase: StepRequestBase = base;
    const results = new Map<string, unknown>();
    const context: TemplateContext = {
      guid: randomUUID(),
      requestId: String(request.id),
      variables: {
        environment: ctx.environment.name,
        requestId: String(request.id),
        clientIp: base.clientIp,
        username: request.wharfAccess?.principal?.username ?? null,
      },
      results,
    };
    const completed: string[] = [];
    const concurrency = client.settings.compositeArrayConcurrency;
    // every step answer is kept for the final one: together at most what a Proxy answer may buffer
    const budget: StepBudget = { remaining: client.settings.bufferLimitBytes };
    ctx.timing.start('steps');
    try {
      for (const step of ctx.endpoint.model.steps) {
        const endpoint = targetOf(ctx, step);
        const stepRequest = stepRequestBase(stepBase, endpoint, step, request.wharfAccess?.principal ?? null);
        const problems: ErrorDetail[] = [];
        const input = stepInput(step, body, context, problems);
        if (problems.length > 0) throw new WharfError('COMPOSITE_VALIDATION_FAILED', undefined, { details: problems });
        let failed: StepCallResult | null = null;
        const values = await boundedMap(
          input.items,
          concurrency,
          async (item) => {
            const result = await callStep(client, endpoint, step.method, item, stepRequest, budget);
            if (!result.ok) failed ??= result;
            return result.ok ? result.value : undefined;
          },
          () => failed !== null || ended.signal.aborted,
        );
        if (ended.signal.aborted) return abandoned(ctx, completed); // answered meanwhile (handler timeout) or nobody to answer
        const failure = failed as StepCallResult | null;
        if (failure && !failure.ok) {
          request.log.warn(
            { event: 'composite.step_failed', traceId: String(request.id), step: step.name, endpoint: endpoint.id, upstreamStatus: failure.upstreamStatus, failures: failure.failures, upstreamBody: failure.upstreamBody },
            'composite step failed',
          );
          return ctx.reply.code(failure.status).send({
            success: false,
            error: formatErrorMessage('COMPOSITE_STEP_FAILED', { step: step.name }),
            step: step.name,
            statusCode: failure.status,
            completedSteps: completed,
            traceId: String(request.id),
          });
        }
        results.set(step.name, input.array ? values : values[0]);
        completed.push(step.name);
      }
    } catch (error) {
      if (ended.signal.aborted) return abandoned(ctx, completed); // already answered (or nobody to answer)
      throw error;
    } finally {
      ended.abort(); // calls still in flight after a thrown error
      ctx.timing.end('steps');
    }
    const stepResults: JsonObject = {};
    for (const step of ctx.endpoint.model.steps) {
      stepResults[step.name] = transformBody(results.get(step.name), targetOf(ctx, step).responseTransforms);
    }
    return { success: true, stepResults };
  };
}
