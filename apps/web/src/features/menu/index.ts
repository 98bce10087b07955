/** The menu feature's public face. */
export { menuQuery, useMenu } from './api.ts';
