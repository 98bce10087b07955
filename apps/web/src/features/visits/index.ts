/** The visits feature's public face: the visit event. */
export { sendVisit } from './api.ts';
