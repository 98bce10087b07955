/**
 * Where the app's toasts (antd message, one instance for the whole app and the API client) sit.
 * By default 8 px from the top, over the empty middle of the header. A full-height panel with its
 * own toolbar at the top — the file viewer, whose 打印/下载/确认图纸 users click right after a
 * toast appeared — moves them just below that toolbar while it is open, so a toast never covers
 * its buttons for its 3 s. The offset follows the toolbar when it wraps or the window resizes.
 */
import { useEffect, useSyncExternalStore } from 'react';

const DEFAULT_TOP = 8;
const GAP = 8;

/** The bottom edge (px from the viewport top) of each open panel that asked to be kept clear. */
const clear = new Map<object, number>();
const listeners = new Set<() => void>();
let top = DEFAULT_TOP;

function publish() {
  const next = Math.max(DEFAULT_TOP, ...[...clear.values()].map((bottom) => Math.ceil(bottom) + GAP));
  if (next === top) return;
  top = next;
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The toasts' top offset in px, for antd <App message={{ top }}>. */
export const useToastTop = () => useSyncExternalStore(subscribe, () => top);

/**
 * Keeps toasts below `el` (a toolbar at the top of a full-height panel) while it is mounted.
 * Pass a callback-ref'd element so the offset is set as soon as the panel's content exists.
 */
export function useToastsBelow(el: HTMLElement | null) {
  useEffect(() => {
    if (!el) return;
    const owner = {};
    const measure = () => {
      const { bottom, height } = el.getBoundingClientRect();
      if (height > 0) clear.set(owner, bottom);
      else clear.delete(owner);
      publish();
    };
    measure();
    // the toolbar wraps (its height changes) or the panel's title above it wraps (it moves)
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.parentElement) observer.observe(el.parentElement);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
      clear.delete(owner);
      publish();
    };
  }, [el]);
}
