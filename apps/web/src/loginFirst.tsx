/**
 * The first load of /esm/login (issue 16: ≤ 200 KB of JS): React, the plain login page and the
 * session calls — no antd, react-query or router. The portal's shell (app/shell.tsx) is
 * fetched as soon as the user starts typing, so it is usually in by the time they press 登录;
 * after the sign-in the landing page is loaded afresh (`enter`), its chunks from the cache.
 */
import { useEffect, useState } from 'react';
import { LOGIN_SUCCESS_TEXT, type CurrentUser } from '@esm/contracts/basics';
import { LoginPage } from './features/session/login.tsx';
import { checkSession, type SessionCheck } from './features/session/calls.ts';

let shell: Promise<typeof import('./app/shell.tsx')> | undefined;
/** The shell module, fetched once (a failed fetch is tried again at the next call). */
function loadShell() {
  shell ??= import('./app/shell.tsx').catch((e: unknown) => {
    shell = undefined;
    throw e;
  });
  return shell;
}

/**
 * Into the portal at the landing page, as a fresh page load (the shell's chunks are in the cache by
 * then: fetched while the user typed, immutable). Mounting the shell into this page's root
 * instead was measured 1.5–2.5 s slower from the click to the table than this (docs/benchmarks.md,
 * the login → table trace). 登陆成功 is handed over in sessionStorage and toasted once there.
 */
async function enter(user: CurrentUser, redirect: string | null, welcome?: string) {
  const s = await loadShell();
  const landing = await s.landingAfterLogin(user, redirect);
  if (welcome) s.handOverWelcome(welcome);
  window.location.replace(landing);
}

export function LoginFirst() {
  const [session, setSession] = useState<SessionCheck>();
  useEffect(() => {
    let live = true;
    checkSession().then(
      (s) => {
        if (!live) return;
        // already signed in: to one's own landing page, as the shell's login route does
        if (s.state === 'ok') void enter(s.user, null);
        else setSession(s);
      },
      () => {}, // no answer: the form stays, the sign-in says what is wrong
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <LoginPage
      session={session}
      onFirstInput={() => void loadShell().then((s) => s.warm(), () => {})}
      onSignedIn={(user) => enter(user, new URLSearchParams(window.location.search).get('redirect'), LOGIN_SUCCESS_TEXT)}
    />
  );
}
