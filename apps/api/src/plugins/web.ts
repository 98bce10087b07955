/**
 * Serves the built SPA (apps/web/dist) under /esm. Unknown paths under /esm get index.html so
 * the SPA's router shows its own not-found page; /, /esm and /login lead into the SPA.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { API_BASE, BASE_PATH, LOGIN_PATH } from '@esm/contracts';

export const webPlugin = fp(async (app: FastifyInstance, opts: { webDist: string }) => {
  const hasBuild = existsSync(path.join(opts.webDist, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: opts.webDist,
      prefix: `${BASE_PATH}/`,
      wildcard: true,
      index: false,
      // apps/web's build writes .br and .gz beside every asset: served by Accept-Encoding
      preCompressed: true,
      // Hashed assets never change; index.html must always be revalidated. (send's own
      // Cache-Control, on by default, would overwrite this one with max-age=0.)
      cacheControl: false,
      setHeaders(res, file) {
        res.setHeader(
          'Cache-Control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        // the same URL answers br, gzip or plain by Accept-Encoding: a shared cache must key on it
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
  }
  const sendIndex = (reply: import('fastify').FastifyReply) =>
    hasBuild
      ? reply.header('Cache-Control', 'no-cache').sendFile('index.html', opts.webDist)
      : reply.status(503).type('text/plain; charset=utf-8').send('前端尚未构建：请先运行 pnpm build');

  for (const url of ['/', '/login']) {
    app.get(url, { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) =>
      reply.redirect(url === '/' ? `${BASE_PATH}/` : LOGIN_PATH),
    );
  }
  app.get(BASE_PATH, { config: { access: 'public' }, schema: { hide: true } }, async (_req, reply) => sendIndex(reply));
  app.get(`${BASE_PATH}/`, { config: { access: 'public' }, schema: { hide: true } }, async (_req, reply) =>
    sendIndex(reply),
  );

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    // HEAD as GET without a body (uptime checks and link checkers ask a page with HEAD)
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (read && url.startsWith(`${BASE_PATH}/`) && !url.startsWith(`${BASE_PATH}/assets/`)) return sendIndex(reply);
    const api = url.startsWith(API_BASE);
    return reply.status(404).send({
      success: false,
      code: '404',
      message: api ? `接口不存在：${request.method} ${url}` : '页面不存在',
      data: null,
    });
  });
});
