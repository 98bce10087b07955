/**
 * Zod compiles object parsers with `new Function` when it may; to find out it tries once, and
 * under the portal's Content-Security-Policy (no 'unsafe-eval', apps/api/src/plugins/security.ts)
 * that try is reported as a CSP violation even though zod falls back. Tell it up front. This
 * must run before any schema is built: main.tsx imports this module first.
 */
import { z } from 'zod';

z.config({ jitless: true });
