/**
 * What an operator needs to follow the portal in production:
 *  - request ids unique across replicas (a UUID each, or the proxy's X-Request-Id when the peer is
 *    a trusted proxy), echoed on every answer in X-Request-Id so a user can quote it and the log
 *    line can be found by it;
 *  - the signed-in account in each request's log lines (`bindUser`, called where the session is read);
 *  - Prometheus metrics at /esm-server/metrics (lib/metrics.ts), for Prometheus only: from the
 *    addresses METRICS_ALLOW names, or with METRICS_TOKEN as a bearer token.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { httpDuration, httpRequests, registry } from '../lib/metrics.ts';
import { forbidden } from './errors.ts';

export const METRICS_PATH = '/esm-server/metrics';
export const METRICS_REFUSED_TEXT = '无权查看运行指标：请从允许的地址访问，或提供正确的令牌';

/**
 * An id a proxy may hand us: a UUID, nginx's $request_id (32 hex), a trace id — letters, digits
 * and a few separators, bounded, so a log line or a header can never be stuffed or split by it.
 */
const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Fastify's genReqId: the id of each request. Fastify's own is a per-process counter (two
 * replicas hand out the same ids); a UUID is unique without coordination. A proxy's id is taken
 * only from a peer TRUST_PROXY names — from anyone else the header is the client's word, and a
 * client could then reuse another request's id to muddle the logs.
 */
export function requestIdGenerator(config: Pick<Config, 'trustProxy'>): (req: IncomingMessage) => string {
  const trusted = config.trustProxy ? proxyAddr.compile(config.trustProxy) : undefined;
  return (req) => {
    if (trusted) {
      const offered = req.headers['x-request-id'];
      const peer = req.socket?.remoteAddress;
      if (typeof offered === 'string' && SANE_ID.test(offered) && peer && trusted(peer, 0)) return offered;
    }
    return randomUUID();
  };
}

/** Adds fields to every later log line of this request (pino child bindings; a no-op without a logger). */
function bindLog(request: FastifyRequest, bindings: Record<string, unknown>): void {
  (request.log as { setBindings?: (b: Record<string, unknown>) => void }).setBindings?.(bindings);
}

/** The signed-in user in the request's log lines from here on: who did it, never a secret. */
export function bindUser(request: FastifyRequest, user: { id: number; account: string; type: number }): void {
  bindLog(request, { userId: user.id, account: user.account, userType: user.type });
}

/** The same string, compared in constant time (hashes first, so the lengths need not match). */
export function sameSecret(a: string, b: string): boolean {
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(a), h(b));
}

export const observabilityPlugin = fp(
  async (app: FastifyInstance, opts: { config: Pick<Config, 'metricsAllow' | 'metricsToken'> }) => {
    const { metricsAllow, metricsToken } = opts.config;
    const allowed = metricsAllow.length ? proxyAddr.compile(metricsAllow) : () => false;

    // First of all hooks: every answer carries the id, refusals and static files included.
    app.addHook('onRequest', async (request, reply) => {
      reply.header('X-Request-Id', request.id);
      // The page's own id for the call (apps/web api/client.ts): what its toast shows when no answer
      // came back, so that a request that did arrive can still be found by it.
      const clientId = request.headers['x-client-request-id'];
      if (typeof clientId === 'string' && SANE_ID.test(clientId)) bindLog(request, { clientReqId: clientId });
    });

    app.addHook('onResponse', async (request, reply) => {
      // the route's pattern (/esm/*, …/file/download): a raw URL would make one series per id
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'not_found',
        status: String(reply.statusCode),
      };
      httpRequests.inc(labels);
      httpDuration.observe(labels, reply.elapsedTime / 1000);
    });

    app.get(METRICS_PATH, {
      // not a user's call: no session is read; who may see it is decided below
      config: { access: 'public' },
      schema: { hide: true },
      // a scrape every few seconds would drown the request log; refusals are logged below
      logLevel: 'warn',
      handler: async (request, reply) => {
        const auth = request.headers.authorization;
        const bearer = typeof auth === 'string' && /^Bearer /i.test(auth) ? auth.slice(7).trim() : undefined;
        // request.ip: the client as seen through the trusted proxies only (TRUST_PROXY)
        const byToken = metricsToken !== undefined && bearer !== undefined && sameSecret(bearer, metricsToken);
        if (!byToken && !allowed(request.ip, 0)) {
          request.log.warn({ ip: request.ip, token: bearer === undefined ? 'none' : 'wrong' }, 'metrics refused');
          throw forbidden(METRICS_REFUSED_TEXT);
        }
        return reply
          .header('Cache-Control', 'no-store')
          .type(registry.contentType)
          .send(await registry.metrics());
      },
    });
  },
);
