/** The archives feature's public face: pickers other features filter by. */
export { supplierSource } from './api.ts';
