/**
 * Serves the built SPA (apps/web/dist) under /esm. Unknown paths under /esm get index.html so
 * the SPA's router shows its own not-found page; /, /esm and /login lead into the SPA. A page's
 * index.html names the chunks that page loads first (plugins/webPreload.ts); the login page's is
 * the file as built.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE, BASE_PATH, LOGIN_PATH } from '@esm/contracts';
import { keyOfPath, pageLoad, readManifest, withPreloads } from './webPreload.ts';

/** If-None-Match against a weak ETag: a list, each tag weak or not (a proxy that compresses may weaken it). */
const matches = (header: string | undefined, etag: string) =>
  header !== undefined &&
  header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag.replace(/^W\//, '');
  });

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
  // every page but the login page names the chunks it loads first (plugins/webPreload.ts)
  const manifest = hasBuild ? readManifest(opts.webDist) : undefined;
  const indexHtml = manifest ? readFileSync(path.join(opts.webDist, 'index.html'), 'utf8') : '';
  const pageHtml = new Map<string, { html: string; etag: string }>();
  // by the page's key: every path that is no page gets the same (the shell and the layout)
  const htmlFor = (url: string) => {
    const page = url.replace(/\/+$/, '');
    const key = keyOfPath(page) ?? '';
    let made = pageHtml.get(key);
    if (!made) pageHtml.set(key, (made = withPreloads(indexHtml, pageLoad(manifest!, page))));
    return made;
  };
  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    if (!hasBuild) return reply.status(503).type('text/plain; charset=utf-8').send('前端尚未构建：请先运行 pnpm build');
    const url = request.url.split('?')[0] ?? '';
    if (!manifest || url.replace(/\/+$/, '') === LOGIN_PATH)
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html', opts.webDist);
    const { html, etag } = htmlFor(url);
    reply.header('Cache-Control', 'no-cache').header('ETag', etag).header('Vary', 'Accept-Encoding');
    if (matches(request.headers['if-none-match'], etag)) return reply.status(304).send();
    return reply.type('text/html; charset=utf-8').send(html);
  };

  for (const url of ['/', '/login']) {
    app.get(url, { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) =>
      reply.redirect(url === '/' ? `${BASE_PATH}/` : LOGIN_PATH),
    );
  }
  app.get(BASE_PATH, { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) =>
    sendIndex(req, reply),
  );
  app.get(`${BASE_PATH}/`, { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) =>
    sendIndex(req, reply),
  );

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    // HEAD as GET without a body (uptime checks and link checkers ask a page with HEAD)
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (read && url.startsWith(`${BASE_PATH}/`) && !url.startsWith(`${BASE_PATH}/assets/`))
      return sendIndex(request, reply);
    const api = url.startsWith(API_BASE);
    return reply.status(404).send({
      success: false,
      code: '404',
      message: api ? `接口不存在：${request.method} ${url}` : '页面不存在',
      data: null,
    });
  });
});
