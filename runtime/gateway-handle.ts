/**
 * The one way from a built fastify instance back to the gateway behind it: `gatewayOf(app)`.
 * For tests, embedders (exported by runtime/index.ts) and the composition roots that are handed
 * only the app (runtime/main.ts, runtime/serve/banner.ts, compiler/cli/serve-command.ts,
 * runtime/testing/). Areas never use it:
 * buildServer hands each its slice and dependencies (runtime/areas/area.ts), and
 * test/architecture/import-graph.test.ts keeps every other runtime module from importing this one.
 * A WeakMap rather than a fastify decoration: nothing is added to fastify's types and a closed app
 * is collected with its gateway.
 */
import type { FastifyInstance } from 'fastify';
import type { ConsoleRuntime } from './admin/console-runtime.js';
import type { HealthMonitor } from './health/health-monitor.js';
import type { WharfRuntime } from './wharf-runtime.js';

export interface GatewayHandle extends WharfRuntime {
  /** The console's accounts, sessions, events and settings. */
  readonly console: ConsoleRuntime;
  /** The health checks behind /health and the console's health events. */
  readonly health: HealthMonitor;
}

const gateways = new WeakMap<FastifyInstance, GatewayHandle>();

/** Called once by buildServer, when every area is mounted. */
export function attachGateway(app: FastifyInstance, runtime: WharfRuntime, areas: Pick<GatewayHandle, 'console' | 'health'>): void {
  gateways.set(app, Object.assign(runtime, areas));
}

export function gatewayOf(app: FastifyInstance): GatewayHandle {
  const gateway = gateways.get(app);
  if (!gateway) throw new Error('gatewayOf: this fastify instance was not built by buildServer');
  return gateway;
}
