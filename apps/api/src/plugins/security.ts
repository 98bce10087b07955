/**
 * Browser-facing defences:
 *  - security headers on every response through helmet (the maintained set of them, kept current
 *    with the browsers, rather than our own list): a Content-Security-Policy the SPA runs
 *    under without 'unsafe-eval', no framing by anyone (frame-ancestors 'none' + X-Frame-Options
 *    DENY: the pages show confidential drawings), nosniff, a same-origin Referrer-Policy, and HSTS
 *    only behind HTTPS (SECURE_COOKIES);
 *  - cross-site requests refused on every state-changing call, before the body is read (a
 *    multipart upload included), by the browser's own Fetch Metadata (`Sec-Fetch-Site`) or, from a
 *    browser too old to send it, the `Origin` header. A request with neither is not a browser
 *    talking on a user's behalf (curl, scripts, tests) and carries no ambient credentials of a
 *    victim, so it passes; SameSite=Lax cookies remain the second line;
 *  - `Cache-Control: no-store` on every answer of the api (confidential rows and files), unless a
 *    route chose its own.
 */
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CROSS_SITE_TEXT = '已拒绝跨站请求：请在本站页面中操作';

/**
 * The policy, directive by directive, for what apps/web does:
 *  - scripts: the built bundle from /esm/assets, and pdf.js's module worker from the same place
 *    (`new Worker(url, { type: 'module' })`, worker-src); 'wasm-unsafe-eval' lets pdf.js compile
 *    its image decoders (WebAssembly only — no eval: the viewer passes isEvalSupported: false);
 *  - styles: antd writes its CSS-in-JS into <style> elements at run time, hence 'unsafe-inline'
 *    for styles (only); the print frame's srcdoc <style> too;
 *  - images: blob: for the PNG previews and the printed pages pdf.js draws, data: for inline icons;
 *  - connect-src 'self': the api, and pdf.js fetching its CMaps / fonts / wasm under /esm/pdfjs.
 */
export function cspDirectives(config: Pick<Config, 'secureCookies'>): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'worker-src': ["'self'"],
    'frame-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(config.secureCookies ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** Whether a state-changing request comes from another site's page (or a sandboxed one). */
export function isCrossSite(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const site = request.headers['sec-fetch-site'];
  // same-origin: our pages; none: the user's own doing (address bar, bookmark)
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  if (origin === 'null') return true; // a sandboxed frame or a data: page
  try {
    // the host only: behind a TLS-terminating proxy the api may see http while the page is https
    // (each side read as a URL of the origin's scheme, so a default port compares equal)
    const from = new URL(origin);
    return from.host !== new URL(`${from.protocol}//${request.host}`).host;
  } catch {
    return true;
  }
}

export const securityPlugin = fp(async (app: FastifyInstance, opts: { config: Config; apiPrefix: string }) => {
  const { config } = opts;
  // helmet itself, its middleware built once here: @fastify/helmet built it again on every request
  // (helmet(options) per call: every header's options checked and the CSP string joined anew,
  // ~20–25 µs of a cheap list call's CPU) and decorated each reply with a per-route helmet()
  // nothing here uses. The same headers, set by the same library from the same options.
  const securityHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // the SPA loads nothing from elsewhere; COEP would only get in the way of nothing
    crossOriginEmbedderPolicy: false,
    hsts: config.secureCookies ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined)),
  );

  // After helmet's hook (registered above), so the refusal carries the headers too. onRequest:
  // before any body is parsed — a cross-site upload is refused before a byte is stored.
  app.addHook('onRequest', async (request) => {
    if (!isCrossSite(request)) return;
    request.log.warn(
      {
        method: request.method,
        url: request.url,
        origin: request.headers.origin,
        site: request.headers['sec-fetch-site'],
      },
      'cross-site request refused',
    );
    throw new AppError(403, CROSS_SITE_TEXT);
  });

  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith(opts.apiPrefix) && !reply.hasHeader('cache-control'))
      reply.header('Cache-Control', 'no-store');
  });
});
