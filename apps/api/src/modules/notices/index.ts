/**
 * The notices module's public face: the recipients' open-count recount (the demo seed).
 * Other modules and the demo seed import this module only through this file.
 */
export { RECOUNT_OPEN_RECIPIENTS_SQL } from './query.ts';
