/** The notifications feature's public face: the header bell (its pages are found by file name). */
export { NotificationBell } from './NotificationBell.tsx';
