/**
 * antd's Drawer (with @rc-component/drawer), fetched when the browser is idle after the page or
 * when first opened (lazyDialog): no landing page shows one before a click — the menu and the
 * tree of a narrow screen, a supplier's contacts.
 */
import type { DrawerProps } from 'antd';
import { lazyDialog } from '../lib/lazyLoaded.ts';

export const Drawer = lazyDialog(
  () => import('./antdDrawer.ts'),
  (m) => m.Drawer,
  (p: DrawerProps) => !!p.open,
);
