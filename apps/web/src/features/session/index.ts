/** The session feature's public face. */
export { sessionQuery, useSession, logout, withoutHandoff, type SessionCheck } from './api.ts';
/** The login page: plain elements, the first load of /esm/login (main.tsx) and the shell's route. */
export { LoginPage } from './login.tsx';
