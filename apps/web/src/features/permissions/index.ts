/**
 * The permissions feature's public face: other features hide the buttons and columns a user may
 * not use through these (the server refuses them anyway). Its admin page is pages/permission.tsx.
 */
export { fetchPermissionsAhead, useButton, useColumnModes, usePageButtons, withoutHidden } from './api.ts';
export { Permitted } from './Permitted.tsx';
