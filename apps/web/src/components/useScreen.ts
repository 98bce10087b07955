/**
 * Is the window at least antd's `md` breakpoint wide (token.screenMD)? Right from the first
 * render, and a re-render only when the answer changes. antd's Grid.useBreakpoint answers {} on
 * its first render and then re-renders its component once after mounting whatever the width, which
 * rendered a whole page twice before its first paint.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { theme } from 'antd';
import { UI } from '@esm/contracts/basics';

const lists = new Map<string, MediaQueryList>();
const listOf = (query: string) => {
  let list = lists.get(query);
  if (!list) lists.set(query, (list = window.matchMedia(query)));
  return list;
};

/** Does `(min-width: px)` match, kept up to date. */
export function useMinWidth(px: number): boolean {
  const query = `(min-width: ${px}px)`;
  const subscribe = useCallback(
    (changed: () => void) => {
      const list = listOf(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => listOf(query).matches);
}

/**
 * Has the user asked the system for less motion (prefers-reduced-motion)? Then antd's opening
 * and closing animations are off (App: token.motion), and dialogs, drawers and menus appear at once.
 * Read once, at the app's start: antd wraps its tree in a motion provider the first time motion
 * goes off, which would remount every open page and lose a half-filled form if the setting
 * changed while the portal is open; a change applies at the next load instead.
 */
export const prefersReducedMotion = (): boolean => listOf('(prefers-reduced-motion: reduce)').matches;

/** At least `md` wide (antd's Grid `md`): room for fixed columns, side panels and two-column details. */
export const useMd = (): boolean => useMinWidth(theme.useToken().token.screenMD);

/**
 * A phone-sized window (below UI.narrowBreakpoint, 769 px): the layout shows the narrow navbar and
 * every list its narrow form (listColumns.tsx). The same breakpoint as the layout's, so a list never
 * keeps its wide form under the narrow navbar.
 */
export const useNarrow = (): boolean => !useMinWidth(UI.narrowBreakpoint);
