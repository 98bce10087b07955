/**
 * The session module's public face: the sweep of expired sign-in attempts (maintenance).
 * Other modules and the demo seed import this module only through this file.
 */
export { sweepLoginAttempts } from './limits.ts';
