/**
 * The OpenAPI documentation under /esm-server/docs. It lists every call with its
 * fields, which is a map for an attacker as much as for an integrator: unless API_DOCS_PUBLIC is
 * set it is shown only to a signed-in internal user (any type but the suppliers' 2 and 4). The
 * document itself is built by @fastify/swagger, registered in app.ts where every route is seen.
 *
 * The page's files and the document are served by @fastify/swagger-ui — loaded on the first visit,
 * not at every start: the plugin and what it loads (yaml, its own @fastify/static, glob,
 * send: ~110 files) were ~40 % of the time a start spends registering routes. It runs in a Fastify
 * instance of its own, built on that first visit, which these routes hand each request to (after
 * the guard) with `inject`; its `swagger()` is this app's, so the document is the same.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CODES } from '@esm/contracts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { readSession } from './auth.ts';
import { AppError } from './errors.ts';
import { sessionPlugin } from './session.ts';

export const DOCS_PREFIX = '/esm-server/docs';

/** Headers of the documentation instance's answer that this server sets itself. */
const OWN_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/** Encapsulated (not fastify-plugin): the session it reads is this scope's own. */
export async function apiDocsPlugin(app: FastifyInstance, opts: { config: Config; db: Db }) {
  const { config, db } = opts;
  if (!config.apiDocsPublic) await app.register(sessionPlugin, { config, db });
  const guard = async (request: FastifyRequest, _reply: FastifyReply) => {
    const state = await readSession(db, request);
    if (!state.ok) throw new AppError(401, '请先以内部用户身份登录，再查看接口文档', CODES.SESSION_EXPIRED);
    if (state.user.isSupplier) throw new AppError(403, '接口文档仅对内部用户开放');
  };

  let ui: Promise<FastifyInstance> | undefined;
  /** swagger-ui in its own instance, whose `swagger()` answers with this app's document. */
  const docsApp = () =>
    (ui ??= (async () => {
      const { default: fastifySwaggerUi } = await import('@fastify/swagger-ui');
      const docs = Fastify();
      // stands in for @fastify/swagger, which swagger-ui names as a dependency
      await docs.register(
        fp(
          async (d: FastifyInstance) =>
            void d.decorate('swagger', ((o?: { yaml?: boolean }) =>
              app.swagger(o as never)) as FastifyInstance['swagger']),
          { name: '@fastify/swagger' },
        ),
      );
      await docs.register(fastifySwaggerUi, { routePrefix: DOCS_PREFIX });
      await docs.ready();
      return docs;
    })().catch((err: unknown) => {
      ui = undefined; // the next visit tries again
      throw err;
    }));

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const res = await (
      await docsApp()
    ).inject({ method: request.method as 'GET' | 'HEAD', url: request.url, headers: request.headers });
    if (res.statusCode === 404) return reply.callNotFound(); // the portal's own 404, as for any other path
    reply.code(res.statusCode);
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined && !OWN_HEADERS.has(name)) reply.header(name, value);
    return reply.send(res.rawPayload);
  };
  const route = { schema: { hide: true }, ...(config.apiDocsPublic ? {} : { onRequest: guard }) };
  app.get(DOCS_PREFIX, route, forward);
  app.get(`${DOCS_PREFIX}/*`, route, forward);
}
