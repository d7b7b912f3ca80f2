#!/usr/bin/env node
/**
 * A small upstream for the sample Proxy and Composite endpoints (endpoints/Proxy/**). `npm start`
 * (`wharf start --demo-upstream`) runs it in its own process and it stops with the server; run it
 * apart with (docs/proxy.md, "Try the samples"):
 *   node scripts/demo-upstream.mjs      primary on 127.0.0.1:9100, standby on 127.0.0.1:9101
 * `DEMO_UPSTREAM_PORTS=PRIMARY,STANDBY` listens on other ports. A port already taken is reported
 * and skipped (e.g. a `npm run demo:upstream` already running answers in its place).
 * Routes (both ports): GET /weather, GET|QUERY|POST /shipping/rates (OData-style, with a nextLink and
 * an internalCost field), GET|POST|PUT|DELETE /shipping/shipments, POST /shipping/labels.
 * `?simulateOutage=1` makes the primary answer 503 to /shipping/rates, so the fallback is used.
 * Every answer says which instance served it (`servedBy`) and echoes the forwarded headers it saw.
 */
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HOST = '127.0.0.1';
const shipments = new Map();

function send(res, status, value) {
  const text = JSON.stringify(value, null, 2);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function seen(req) {
  return {
    'x-forwarded-for': req.headers['x-forwarded-for'] ?? null,
    'x-request-id': req.headers['x-request-id'] ?? null,
    authorization: req.headers.authorization ? 'present (should never happen)' : 'absent',
    'x-original-method': req.headers['x-original-method'] ?? null,
  };
}

function app(name, port) {
  const origin = `http://${HOST}:${port}`;
  return async (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const body = await readJson(req);
    const path = url.pathname.replace(/\/+$/, '');
    if (path === '/weather') {
      return send(res, 200, { servedBy: name, city: url.searchParams.get('city') ?? 'Rotterdam', temperatureC: 11, wind: 'SW 5', seen: seen(req) });
    }
    if (path === '/shipping/rates') {
      if (name === 'primary' && url.searchParams.get('simulateOutage') === '1') return send(res, 503, { servedBy: name, error: 'maintenance' });
      const skip = Number(url.searchParams.get('$skip') ?? '0');
      const all = [
        { carrier: 'PostNL', service: 'Standard', price: 6.95, internalCost: 3.1 },
        { carrier: 'DHL', service: 'Express', price: 14.5, internalCost: 8.2 },
        { carrier: 'UPS', service: 'Saver', price: 12.0, internalCost: 7.7 },
        { carrier: 'DPD', service: 'Classic', price: 7.5, internalCost: 3.9 },
      ];
      const page = all.slice(skip, skip + 2);
      return send(res, 200, {
        servedBy: name,
        criteria: body,
        value: page,
        ...(skip + 2 < all.length ? { '@odata.nextLink': `${origin}/shipping/rates?$skip=${skip + 2}` } : {}),
        seen: seen(req),
      });
    }
    if (path.startsWith('/shipping/shipments')) {
      const id = url.searchParams.get('shipmentId') ?? path.split('/')[3] ?? null;
      if (req.method === 'GET') return id ? (shipments.has(id) ? send(res, 200, shipments.get(id)) : send(res, 404, { error: 'no such shipment' })) : send(res, 200, { servedBy: name, value: [...shipments.values()] });
      if (req.method === 'DELETE') return shipments.delete(id) ? send(res, 200, { deleted: id }) : send(res, 404, { error: 'no such shipment' });
      if (body === null || typeof body !== 'object') return send(res, 400, { error: 'a JSON object is required' });
      const shipment = { id: body.id ?? randomUUID(), status: 'created', ...body, servedBy: name, seen: seen(req) };
      shipments.set(shipment.id, shipment);
      return send(res, 201, shipment);
    }
    if (path === '/shipping/labels' && req.method === 'POST') {
      if (body === null || typeof body !== 'object') return send(res, 400, { error: 'a JSON object is required' });
      return send(res, 201, { labelId: randomUUID(), shipmentId: body.shipmentId ?? null, parcel: body, format: 'PDF', servedBy: name });
    }
    send(res, 404, { error: `no route ${req.method} ${path}` });
  };
}

/** [primary, standby] from `DEMO_UPSTREAM_PORTS` (default 9100,9101). */
export function demoUpstreamPorts(env = process.env) {
  const ports = (env.DEMO_UPSTREAM_PORTS ?? '9100,9101').split(',').map((p) => Number(p.trim()));
  if (ports.length !== 2 || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
    throw new Error(`DEMO_UPSTREAM_PORTS must be two ports, e.g. 9100,9101 (got '${env.DEMO_UPSTREAM_PORTS}')`);
  }
  return ports;
}

function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Starts the primary and the standby; `log(line)` gets one line each (listening, or why not).
 * Resolves with close() once both have listened or been skipped. The servers never keep the process
 * alive by themselves (unref), so the process ends when the gateway does.
 */
export async function startDemoUpstream({ ports = demoUpstreamPorts(), log = (line) => console.log(line), unref = false } = {}) {
  const servers = [];
  for (const [name, port] of [['primary', ports[0]], ['standby', ports[1]]]) {
    const server = createServer(app(name, port));
    try {
      await listen(server, port);
      if (unref) server.unref();
      servers.push(server);
      log(`demo upstream ${name} on http://${HOST}:${port}`);
    } catch (error) {
      log(
        error && error.code === 'EADDRINUSE'
          ? `demo upstream ${name}: port ${port} on ${HOST} is already in use; not starting it (whatever listens there answers the sample endpoints)`
          : `demo upstream ${name}: cannot listen on ${HOST}:${port}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return {
    listening: servers.length,
    close: () => Promise.all(servers.map((s) => new Promise((resolve) => { s.closeAllConnections(); s.close(() => resolve()); }))),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await startDemoUpstream();
}
