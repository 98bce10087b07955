/** The signed-in user's menu entries, provided by the shell (BasicLayout) to the pages inside it. */
import { createContext, useContext } from 'react';
import type { MenuEntry } from '@esm/contracts';

export const MenuContext = createContext<MenuEntry[]>([]);
export const useMenuEntries = () => useContext(MenuContext);
