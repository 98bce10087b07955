/**
 * The countersign module's public face: writing finished countersign histories (the demo seed).
 * Other modules and the demo seed import this module only through this file.
 */
export { writeCountersignHistories, type CountersignHistory, type CountersignStep } from './service.ts';
