/**
 * Zod compiles object parsers with `new Function` when it may; to find out it tries once, and
 * under the portal's Content-Security-Policy (no 'unsafe-eval', apps/api/src/plugins/security.ts)
 * that try is reported as a CSP violation even though zod falls back. Tell it up front. This
 * must run before any schema is built: main.tsx imports this module first. It writes zod's
 * global config object (`globalThis.__zod_globalConfig`, which `z.config` merges into) without
 * importing zod, so the first load of /esm/login carries no zod.
 */
const g = globalThis as { __zod_globalConfig?: Record<string, unknown> };
(g.__zod_globalConfig ??= {}).jitless = true;

export {};
