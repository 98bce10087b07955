/**
 * In the browser the portal's Content-Security-Policy forbids eval (no 'unsafe-eval'). Zod 4.6
 * decides when an object schema is built whether it may compile a parser with `new Function`,
 * and that one try is reported as a CSP violation. index.ts imports this module first, so the
 * browser is jitless before any contracts schema exists — whichever chunk the bundler puts zod
 * in. The server keeps zod's compiled parsers.
 */
import { z } from 'zod';

if (typeof document !== 'undefined') z.config({ jitless: true });
