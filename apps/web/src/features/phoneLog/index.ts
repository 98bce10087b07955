/** The phoneLog feature's public face: the masked number with its eye icon, the contacts drawer, and the view log page. */
import { PHONE_LOG_PAGE } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export { MaskedMobile } from './MaskedMobile.tsx';
export { ContactsButton, ContactsDrawer } from './ContactsDrawer.tsx';
export const pages: PageLoaders = { [PHONE_LOG_PAGE]: () => import('./pages/mobilePhoneLog.tsx') };
