/**
 * Lazy pages and layout that render at once when their code is already in.
 *
 * React.lazy suspends on its first render even when the module has been loaded before (it only
 * learns that from the promise, a microtask later), so its Suspense fallback shows; and React 19
 * holds back the retry that reveals the content until 300 ms after the most recent fallback
 * showed (react-dom's Suspense throttling, `globalMostRecentFallbackTime + 300`). After a sign-in
 * whose layout and landing page were fetched while the user typed (app/afterLogin.ts), that put a
 * spinner and ~0.3–0.45 s before the landing page. `remembered` keeps a loader's module once any
 * call of it has resolved, and `lazyLoaded` renders that module directly — lazy() only for code
 * still on its way.
 */
import { createElement, lazy, Suspense, useEffect, useState, type ComponentType } from 'react';

/** A module loader that keeps its module once loaded (`loaded`). */
export type Loader<M> = (() => Promise<M>) & { readonly loaded?: M };

export function remembered<M>(load: () => Promise<M>): Loader<M> {
  const f = (() =>
    load().then((m) => {
      (f as { loaded?: M }).loaded = m;
      return m;
    })) as Loader<M>;
  return f;
}

/**
 * React.lazy over `load`, rendering `pick(module)` without suspending once the module is in.
 * Which of the two an instance renders is decided when it mounts, for its life: switching from
 * the lazy wrapper to the component itself on a later render would be a different element type
 * in the same place, so React would mount the page afresh — a form half filled while the page
 * was loading came back empty.
 */
export function lazyLoaded<M, P extends object>(load: Loader<M>, pick: (m: M) => ComponentType<P>): ComponentType<P> {
  const Lazy = lazy(() => load().then((m) => ({ default: pick(m) })));
  function Loaded(props: P) {
    const [m] = useState(() => load.loaded);
    return m ? createElement(pick(m), props) : createElement(Lazy as ComponentType<P>, props);
  }
  return Loaded;
}

/**
 * A dialog or drawer (or a part shown only inside one) whose code is not part of its page's first
 * load: nothing is rendered until `isOpen(props)` first holds, and from then on the dialog itself
 * (so that it still animates as it closes). Its code is fetched when the browser is next idle after the page came, so it is
 * usually in before the first click; a dialog opened sooner shows once its code arrives.
 */
export function lazyDialog<M, P extends object>(
  load: () => Promise<M>,
  pick: (m: M) => ComponentType<P>,
  isOpen: (props: P) => boolean,
): ComponentType<P> {
  const loader = remembered(load);
  const Dialog = lazyLoaded(loader, pick);
  const prefetch = () => void loader().catch(() => {});
  function LazyDialog(props: P) {
    const open = isOpen(props);
    const [opened, setOpened] = useState(open);
    if (open && !opened) setOpened(true);
    useEffect(() => {
      if (loader.loaded) return;
      if (typeof requestIdleCallback !== 'function') {
        const t = setTimeout(prefetch, 1000);
        return () => clearTimeout(t);
      }
      const h = requestIdleCallback(prefetch, { timeout: 3000 });
      return () => cancelIdleCallback(h);
    }, []);
    return opened ? createElement(Suspense, { fallback: null }, createElement(Dialog, props)) : null;
  }
  return LazyDialog;
}
