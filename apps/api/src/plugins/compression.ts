/**
 * The api's JSON answers compressed when the client accepts it (br, else gzip), above 1 KB: a
 * landing page's first lists and the menu are tens of KB of JSON each, a few KB compressed.
 * @fastify/compress does the negotiation, Vary and the streaming; brotli at its quality 4 (its
 * default, a fraction of a millisecond for a page of rows).
 *
 * Only JSON and the portal's pages (index.html with the chunks a page loads first named in it,
 * made per page by plugins/web.ts), never a call that answers bytes (file view/print/download, the
 * Excel exports): those stream with their own Content-Length and count each byte handed to the
 * socket for the delivery records (lib/access-log-delivery.ts), and a stored drawing is compressed
 * already. The web's static files are compressed at build time (apps/web's vite.config.ts, served
 * by plugins/web.ts): nothing to do here. Request bodies are never decompressed (no client sends
 * them compressed, and a gzip body would only be a way round the body limit's meaning).
 */
import fastifyCompress from '@fastify/compress';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: compressing them saves less than its headers cost. */
export const COMPRESS_THRESHOLD = 1024;

export const compressionPlugin = fp(async (app: FastifyInstance) => {
  await app.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    customTypes: /^(?:application\/json|text\/html)(?:;|$)/,
    globalDecompression: false,
  });
});
