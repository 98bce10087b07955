/**
 * The portal's shell (antd, react-query, the router, the layout) as one lazy module: main.tsx
 * loads it at once for every page but /esm/login, whose first load carries none of it
 * (issue 16); there it is fetched while the user types, and the portal is entered after the
 * sign-in as a fresh page load of the landing page (loginFirst.tsx).
 */
import { StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { App } from './App.tsx';
import { landingAfterLogin, loadLayout } from './afterLogin.ts';

export { landingAfterLogin };

/** While the user types: the layout chunk too, which every landing page needs (into the HTTP cache). */
export function warm() {
  void loadLayout().catch(() => {});
}

const WELCOME_KEY = 'esm.welcome';

/** 登陆成功 for the landing page the login page is about to load. */
export function handOverWelcome(text: string) {
  try {
    sessionStorage.setItem(WELCOME_KEY, text);
  } catch {
    // storage refused (a private mode): the portal opens without the toast
  }
}

/** The text handed over by the login page, once. */
function takeWelcome(): string | undefined {
  try {
    const text = sessionStorage.getItem(WELCOME_KEY) ?? undefined;
    sessionStorage.removeItem(WELCOME_KEY);
    return text;
  } catch {
    return undefined;
  }
}

/** Renders the portal into `root`; a welcome handed over by the login page is toasted once it is up. */
export function mountPortal(root: Root) {
  root.render(
    <StrictMode>
      <App welcome={takeWelcome()} />
    </StrictMode>,
  );
}
