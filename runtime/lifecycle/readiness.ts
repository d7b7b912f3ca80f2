/**
 * Whether this instance takes new requests (GET /health/ready, health/ready.ts), and the moment it
 * stops accepting: graceful shutdown (graceful-shutdown.ts) turns it unready first, and after
 * Server:ShutdownDelaySeconds calls finishing(), which ends what would otherwise never end by
 * itself (the console's event streams: their clients reconnect to another instance and resume).
 */
export class Readiness {
  #stopping = false;
  readonly #onFinishing = new Set<() => void>();

  get ready(): boolean {
    return !this.#stopping;
  }

  /** The instance is stopping: from now on /health/ready answers 503. */
  stopping(): void {
    this.#stopping = true;
  }

  /** Runs `stop` when the instance stops accepting; returns the function that unregisters it. */
  whenFinishing(stop: () => void): () => void {
    this.#onFinishing.add(stop);
    return () => this.#onFinishing.delete(stop);
  }

  /** The port is closed: ends the long-lived streams. */
  finishing(): void {
    for (const stop of [...this.#onFinishing]) stop();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
  }
}
