/**
 * Test helper: a temp project + buildServer with captured JSON logs, a token store in the project's
 * `data/` folder and one real token (scopes `*`, environments `*`) made through the token service.
 * `inject()` sends it as `Authorization: Bearer <token>`; use `app.inject()` to go without one.
 * Rate limiting stays on (raise the budget through `RateLimiting:*` settings when a test needs to).
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import path from 'node:path';
import { Writable } from 'node:stream';
import { gatewayOf } from '../gateway-handle.js';
import type { HandlerMap } from '../handlers/registry.js';
import { buildServer } from '../server.js';
import { createTempProject } from './generated-fixture.js';
import type { FixtureContent, TempProject } from './generated-fixture.js';

export class LogCapture extends Writable {
  readonly chunks: string[] = [];
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.chunks.push(chunk.toString());
    callback();
  }
  text(): string {
    return this.chunks.join('');
  }
  lines(): Record<string, unknown>[] {
    return this.text()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

export const DEFAULT_ENVIRONMENTS = {
  demo: { Provider: 'embedded', ConnectionString: 'embedded://demo', Headers: { 'X-Env': 'demo' } },
  prod: {
    Provider: 'postgres',
    ConnectionString: 'Host=db;Username=app;Password=hunter2-prod',
    Headers: { 'X-Api-Key': 'prod-api-key-value' },
  },
};

export interface TestServerOptions {
  readonly generated: FixtureContent;
  readonly serverSettings?: unknown;
  readonly environments?: Readonly<Record<string, unknown>>;
  readonly handlers?: Partial<HandlerMap>;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface TestServer {
  readonly app: FastifyInstance;
  readonly project: TempProject;
  readonly logs: LogCapture;
  /** A valid token (username `tester`, scopes `*`, environments `*`). */
  readonly token: string;
  /** app.inject() with `Authorization: Bearer <token>` added (an explicit authorization header wins). */
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export const TEST_TOKEN_USERNAME = 'tester';

export async function createTestServer(options: TestServerOptions): Promise<TestServer> {
  const project = await createTempProject({
    generated: options.generated,
    serverSettings: options.serverSettings ?? {
      Environment: { ServerName: 'test', AllowedEnvironments: ['demo', 'prod', 'ghost'] },
    },
    environments: options.environments ?? DEFAULT_ENVIRONMENTS,
  });
  const logs = new LogCapture();
  try {
    const app = await buildServer({
      generatedDir: project.generatedDir,
      environmentsDir: project.environmentsDir,
      dataDir: path.join(project.root, 'data'),
      env: options.env ?? {},
      logger: { level: 'info', stream: logs },
      ...(options.handlers ? { handlers: options.handlers } : {}),
    });
    const { token } = await gatewayOf(app).access.tokens.create({ username: TEST_TOKEN_USERNAME });
    return {
      app,
      project,
      logs,
      token,
      inject: (request) =>
        app.inject({ ...request, headers: { authorization: `Bearer ${token}`, ...request.headers } }),
      close: async () => {
        await app.close();
        await project.cleanup();
      },
    };
  } catch (error) {
    await project.cleanup();
    throw error;
  }
}
