/** The phoneLog feature's public face: the masked number with its eye icon, the contacts drawer, and the view log page. */
import type { PageLoaders } from '../pages.ts';

export { MaskedMobile } from './MaskedMobile.tsx';
export { ContactsButton, ContactsDrawer } from './ContactsDrawer.tsx';
export const pages: PageLoaders = { mobilePhoneLog: () => import('./pages/mobilePhoneLog.tsx') };
