/**
 * `@esm/contracts/basics`: the zod-free part of the contracts — codes, routes, texts, the error
 * catalogue, the session's paths and login-field check — for code on the first load of
 * /esm/login (apps/web: the shell, the API client, the session check, the login page), which
 * must not pull in zod and every domain's schemas (≤ 200 KB of JS). Everything here is
 * also exported by the main entry; types may come from anywhere (they vanish at build).
 */
export * from './codes.ts';
export * from './errors.ts';
export * from './routes.ts';
export * from './pages.ts';
export * from './ui.ts';
export * from './session-basics.ts';
export * from './page-paths.ts';
export type * from './endpoint.ts';
export type { FieldError } from './envelope.ts';
export type { CurrentUser, LoginRequest } from './session.ts';
