/**
 * Stopping without cutting anyone off. On SIGTERM/SIGINT (start.ts calls stopGracefully):
 *  1. the health answers turn 503 at once, so a load balancer stops sending new requests here
 *     (liveness, /esm-server/health/live, stays 200: the process is alive and finishing its work);
 *  2. the server stops accepting connections; idle keep-alive connections are closed, and a
 *     connection whose request finishes is closed after its response (Fastify's close answers
 *     requests that still arrive on an open connection with 503 and `Connection: close`);
 *  3. requests in flight — a large download included — finish, for up to the grace period;
 *  4. delivery records being written are awaited, the caller closes the pools and exits 0.
 * Past the grace the remaining connections are cut (their deliveries are recorded incomplete),
 * and the caller exits non-zero, having logged how many requests were cut.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Writes that must end before the pools close at a stop (a delivery's row). */
const settling = new Set<Promise<unknown>>();

/** Registers `write`: a stop waits for it before the database pool closes. */
export function finishBeforeStop(write: Promise<unknown>): void {
  settling.add(write);
  void write.finally(() => settling.delete(write));
}

interface DrainState {
  stopping: boolean;
  /** Responses of requests received and not yet closed. */
  running: Set<ServerResponse>;
}

declare module 'fastify' {
  interface FastifyInstance {
    drain: DrainState;
  }
}

const HEALTH = '/esm-server/health';
const LIVE = '/esm-server/health/live';

const isReadinessCheck = (request: FastifyRequest) => {
  const path = request.url.split('?')[0] ?? '';
  return (path === HEALTH || path.startsWith(`${HEALTH}/`)) && path !== LIVE;
};

/**
 * Tracks the requests in flight and answers the health checks 503 once stopping. Registered
 * before every route (a hook applies to the routes declared after it).
 */
export const drainPlugin = fp(async (app: FastifyInstance) => {
  const state: DrainState = { stopping: false, running: new Set() };
  app.decorate('drain', state);
  app.addHook('onRequest', async (request, reply) => {
    const res = reply.raw;
    state.running.add(res);
    res.once('close', () => state.running.delete(res));
    if (state.stopping && isReadinessCheck(request)) {
      // a string body: the health routes' own response schemas do not know this answer
      return reply
        .code(503)
        .header('Connection', 'close')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ status: 'unavailable', stopping: true }));
    }
  });
  // A response that starts while stopping closes its connection after it: a keep-alive client
  // then opens its next connection elsewhere (this listener is closed) instead of sending its next
  // request into a connection about to close.
  app.addHook('onSend', async (_request, reply) => {
    if (state.stopping) reply.header('Connection', 'close');
  });
});

/**
 * Stops the server as the header says. Answers how many requests were cut at the end of the
 * grace (0: everything in flight finished).
 */
export async function stopGracefully(app: FastifyInstance, graceMs: number): Promise<{ cut: number }> {
  const { drain, server } = app;
  drain.stopping = true;
  // A response that was already under way (headers sent, keep-alive) leaves its connection idle
  // when it finishes — every byte handed to the socket by then: close it then, so the server's
  // close does not wait for the client's keep-alive to time out.
  const closeIdleSoon = () => setImmediate(() => server.closeIdleConnections());
  for (const res of drain.running) res.once('finish', closeIdleSoon);
  const closed = app.close();
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'grace over'>((resolve) => {
    timer = setTimeout(() => resolve('grace over'), graceMs);
  });
  let cut = 0;
  if ((await Promise.race([closed.then(() => 'closed' as const), graceOver])) === 'grace over') {
    cut = drain.running.size;
    server.closeAllConnections();
    await closed;
  }
  clearTimeout(timer);
  // The server reports closed when its sockets are; each response's own close (where a delivery
  // is recorded) follows in a later turn: wait for those, then for the rows being written, before
  // the pools close.
  while (drain.running.size) await new Promise((resolve) => setImmediate(resolve));
  while (settling.size) await Promise.allSettled([...settling]);
  return { cut };
}
