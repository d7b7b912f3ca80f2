/**
 * One fastify `onResponse` hook per instance for everything the gateway does once a response is
 * done: the request gate takes the request out of its list, the metrics count it, the request log
 * writes its line. Each stays its own module and adds itself here; the one hook calls them in the
 * order they were added (the order fastify ran them as separate hooks: the gate first, since the
 * lifecycle area is mounted first). fastify runs each hook of a phase through its hook runner, a
 * step with a `next` callback per hook per request; one hook for the three is one step.
 * test/operations/hot-path.test.ts counts the gateway's onResponse hooks.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Told once per finished response, synchronously; it must not throw (a throw skips the rest, as it did between hooks). */
export type ResponseObserver = (request: FastifyRequest, reply: FastifyReply) => void;

const observersOf = new WeakMap<FastifyInstance, ResponseObserver[]>();

/**
 * Adds `observer` to the instance's one onResponse hook (installed on the first call). Like
 * `app.addHook('onResponse')` it applies to the routes of this instance and its scopes.
 */
export function observeResponses(app: FastifyInstance, observer: ResponseObserver): void {
  let observers = observersOf.get(app);
  if (observers === undefined) {
    const list: ResponseObserver[] = [];
    observers = list;
    observersOf.set(app, list);
    app.addHook('onResponse', (request, reply, done) => {
      for (let index = 0; index < list.length; index++) list[index]!(request, reply);
      done();
    });
  }
  observers.push(observer);
}
