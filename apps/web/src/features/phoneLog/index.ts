/** The phoneLog feature's public face: the masked number with its eye icon and the button that opens the contacts drawer. */
export { MaskedMobile } from './MaskedMobile.tsx';
export { ContactsButton } from './ContactsDrawer.tsx';
