/**
 * The menu module's public face: a user type's menu, for the session's sign-in and checks.
 * Other modules and the demo seed import this module only through this file.
 */
export { menuOf, typeHasMenu } from './service.ts';
