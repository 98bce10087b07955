/**
 * Layout preferences kept in local storage, per browser: menu fold state, theme, open groups, a
 * table's shown columns.
 */
import { useCallback, useSyncExternalStore } from 'react';

const KEYS = { collapsed: 'esm.menu.collapsed', theme: 'esm.theme', openKeys: 'esm.menu.openKeys' } as const;
export type ThemeName = 'light' | 'dark';

function read<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

const listeners = new Set<() => void>();
const cache = new Map<string, unknown>();

export function usePref<T>(key: string, fallback: T): [T, (v: T) => void] {
  const subscribe = useCallback((cb: () => void) => {
    listeners.add(cb);
    return () => listeners.delete(cb);
  }, []);
  const value = useSyncExternalStore(subscribe, () => {
    if (!cache.has(key)) cache.set(key, read(key, fallback));
    return cache.get(key) as T;
  });
  const set = useCallback(
    (v: T) => {
      cache.set(key, v);
      localStorage.setItem(key, JSON.stringify(v));
      listeners.forEach((l) => l());
    },
    [key],
  );
  return [value, set];
}

/** Collapsed by default, as in the legacy portal. */
export const useCollapsed = () => usePref<boolean>(KEYS.collapsed, true);
export const useThemeName = () => usePref<ThemeName>(KEYS.theme, 'light');
/** The stored theme outside React (components/PortalFrame.tsx, before the shell's code). */
export const storedThemeName = () => read<ThemeName>(KEYS.theme, 'light');
export const useOpenKeys = () => usePref<string[]>(KEYS.openKeys, []);
/** The columns a user hid or showed on a table (column settings), by the table's key. */
export const useColumnChoice = (table: string) => usePref<Record<string, boolean>>(`esm.columns.${table}`, {});
