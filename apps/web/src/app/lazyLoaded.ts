/**
 * Lazy pages and layout that render at once when their code is already in.
 *
 * React.lazy suspends on its first render even when the module has been loaded before (it only
 * learns that from the promise, a microtask later), so its Suspense fallback shows; and React 19
 * holds back the retry that reveals the content until 300 ms after the most recent fallback
 * showed (react-dom's Suspense throttling, `globalMostRecentFallbackTime + 300`). After a sign-in
 * whose layout and landing page were fetched while the user typed (afterLogin.ts), that put a
 * spinner and ~0.3–0.45 s before the landing page. `remembered` keeps a loader's module once any
 * call of it has resolved, and `lazyLoaded` renders that module directly — lazy() only for code
 * still on its way.
 */
import { createElement, lazy, type ComponentType } from 'react';

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

/** React.lazy over `load`, rendering `pick(module)` without suspending once the module is in. */
export function lazyLoaded<M, P extends object>(load: Loader<M>, pick: (m: M) => ComponentType<P>): ComponentType<P> {
  const Lazy = lazy(() => load().then((m) => ({ default: pick(m) })));
  function Loaded(props: P) {
    const m = load.loaded;
    return m ? createElement(pick(m), props) : createElement(Lazy as ComponentType<P>, props);
  }
  return Loaded;
}
