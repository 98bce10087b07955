/** The session feature's public face. */
export { sessionQuery, useSession, logout, withoutHandoff, type SessionCheck } from './api.ts';
/** The login page (its own chunk, spec §2). */
export const loginPage = () => import('./login.tsx');
