/**
 * The OpenAPI documentation under /esm-server/docs (design §5). It lists every call with its
 * fields, which is a map for an attacker as much as for an integrator: unless API_DOCS_PUBLIC is
 * set it is shown only to a signed-in internal user (any type but the suppliers' 2 and 4). The
 * document itself is built by @fastify/swagger, registered in app.ts where every route is seen.
 */
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CODES } from '@esm/contracts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { readSession } from './auth.ts';
import { AppError } from './errors.ts';
import { sessionPlugin } from './session.ts';

export const DOCS_PREFIX = '/esm-server/docs';

/** Encapsulated (not fastify-plugin): the session it reads is this scope's own. */
export async function apiDocsPlugin(app: FastifyInstance, opts: { config: Config; db: Db }) {
  const { config, db } = opts;
  if (!config.apiDocsPublic) await app.register(sessionPlugin, { config, db });
  const guard = async (request: FastifyRequest, _reply: FastifyReply) => {
    const state = await readSession(db, request);
    if (!state.ok) throw new AppError(401, '请先以内部用户身份登录，再查看接口文档', CODES.SESSION_EXPIRED);
    if (state.user.isSupplier) throw new AppError(403, '接口文档仅对内部用户开放');
  };
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    ...(config.apiDocsPublic ? {} : { uiHooks: { onRequest: guard } }),
  });
}
