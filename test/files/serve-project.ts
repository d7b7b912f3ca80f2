/**
 * Child process for the upload process tests: starts the real server on a temp project
 * (argv[2] = project root) on a free port, creates a token and prints one JSON line
 * `{ "port", "token", "pid" }` on stdout. Runs until killed.
 */
import path from 'node:path';
import { startServer } from '../../runtime/start.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

const root = process.argv[2]!;
const started = await startServer({
  generatedDir: path.join(root, 'generated'),
  environmentsDir: path.join(root, 'environments'),
  dataDir: path.join(root, 'data'),
  logger: false,
  port: 0,
  host: '127.0.0.1',
});
const { token } = await gatewayOf(started.app).access.tokens.create({ username: `child-${process.pid}` });
process.stdout.write(`${JSON.stringify({ port: Number(new URL(started.url).port), token, pid: process.pid })}\n`);
