/**
 * The portal's shell (antd, react-query, the router, the layout) as one lazy module: main.tsx
 * loads it at once for every page but /esm/login, whose first load carries none of it;
 * there it is fetched while the user types, and after the sign-in it takes over the
 * same page at the landing page (`enterPortal`, loginFirst.tsx).
 */
import { StrictMode, startTransition } from 'react';
import type { Root } from 'react-dom/client';
import type { CurrentUser } from '@esm/contracts/basics';
import { App } from './App.tsx';
import { router } from './router.tsx';
import type { SessionCheck } from '../features/session/index.ts';
import { landingAfterLogin, loadLayout, openAhead, prefetchLanding, setSignedIn } from './afterLogin.ts';

export { landingAfterLogin, prefetchLanding };

/** While the user types: the layout chunk too, which every landing page needs (into the HTTP cache). */
export function warm() {
  void loadLayout().catch(() => {});
}

/**
 * Renders the portal into `root`; `welcome` (登陆成功, from the login page) is toasted once it is up.
 * `session`: a page opened directly, whose session check main.tsx started: what the page needs
 * is asked for at once (openAhead).
 */
export function mountPortal(root: Root, welcome?: string, session?: Promise<SessionCheck>) {
  if (session) openAhead(session);
  // A transition: React renders the shell, the layout and the page in slices of a few ms and
  // commits them together, while the frame (or the login page) stays on screen; rendered at once,
  // that first render was one task of several hundred ms, during which the page took no input.
  startTransition(() =>
    root.render(
      <StrictMode>
        <App welcome={welcome} />
      </StrictMode>,
    ),
  );
}

/** From the first-load login page into the portal, signed in, at `landing`, in the same page. */
export async function enterPortal(root: Root, user: CurrentUser, landing: string, welcome?: string) {
  setSignedIn(user);
  await router.navigate(landing, { replace: true });
  mountPortal(root, welcome);
}
