/**
 * The proxy bench's baseline: what a hand-written forwarder on the same client library does (one
 * keep-alive undici Pool, the body streamed). Run as a script it serves in its own process, as
 * Wharf does in the bench, and prints its URL on stdout; SIGTERM stops it:
 *   node --import tsx bench/bare-forwarder.ts http://127.0.0.1:PORT
 */
import Fastify from 'fastify';
import { Pool } from 'undici';

export async function bareForwarder(origin: string) {
  const pool = new Pool(origin, { connections: 64 });
  const app = Fastify({ logger: false });
  app.get('/*', async (request, reply) => {
    const response = await pool.request({ path: request.url, method: 'GET', headers: { accept: 'application/json' } });
    reply.code(response.statusCode);
    reply.header('content-type', response.headers['content-type']);
    return reply.send(response.body);
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: async () => { await app.close(); await pool.close(); } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const origin = process.argv[2];
  if (!origin) throw new Error('usage: bare-forwarder.ts <upstream origin>');
  const forwarder = await bareForwarder(origin);
  process.stdout.write(`${forwarder.url}\n`);
  process.once('SIGTERM', () => {
    void forwarder.close().then(() => process.exit(0));
  });
}
