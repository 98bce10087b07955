/** The phoneLog feature's public face: the masked number with its eye icon and the contacts drawer. */
export { MaskedMobile } from './MaskedMobile.tsx';
export { ContactsButton, ContactsDrawer } from './ContactsDrawer.tsx';
