/**
 * The first load of /esm/login (≤ 200 KB of JS): React, the plain login page and the
 * session calls — no antd, react-query or router. The portal's shell (app/shell.tsx) is
 * fetched as soon as the user starts typing, so it is usually in by the time they press 登录;
 * after the sign-in it takes over this page's React root at the landing page (`enter`).
 */
import { useEffect, useRef, useState } from 'react';
import type { Root } from 'react-dom/client';
import { LOGIN_SUCCESS_TEXT, type CurrentUser } from '@esm/contracts/basics';
import { LoginPage } from './features/session/login.tsx';
import { checkSession, type SessionCheck } from './features/session/calls.ts';

let shell: Promise<typeof import('./app/shell.tsx')> | undefined;

/** How long after the shell arrived the landing page's code is fetched (see LoginFirst). */
const LANDING_PREFETCH_DELAY_MS = 500;
/** The shell module, fetched once (a failed fetch is tried again at the next call). */
function loadShell() {
  shell ??= import('./app/shell.tsx').catch((e: unknown) => {
    shell = undefined;
    throw e;
  });
  return shell;
}

/**
 * Into the portal at the landing page, in this page: the shell takes over its React root, signed
 * in, with the landing page's layout, menu and chunk already asked for (app/afterLogin.ts). A
 * fresh page load of the landing page was used instead for a while: it measured 1.5–2.5 s faster
 * — but only because antd's toast 登陆成功 then re-rendered on every animation frame and held
 * this page's render back until it closed (patches/). With that fixed, staying in the page is
 * 0.6–0.7 s faster from the click to the table than loading it afresh (no second page load,
 * module evaluation, session and menu calls; docs/benchmarks.md, sixth session of 2026-11-23).
 */
async function enter(root: Root, user: CurrentUser, redirect: string | null, welcome?: string) {
  const s = await loadShell();
  await s.enterPortal(root, user, await s.landingAfterLogin(user, redirect), welcome);
}

export function LoginFirst({ root }: { root: Root }) {
  const [session, setSession] = useState<SessionCheck>();
  // the form has been sent: no more landing page code fetched beside the sign-in (afterLogin.ts)
  const sending = useRef(false);
  // A person typing leaves seconds for the landing page's code; a form filled in at once (the
  // browser's autofill) is usually sent at once, and its code then waits for the account.
  const prefetchLanding = (s: Awaited<ReturnType<typeof loadShell>>) =>
    setTimeout(() => void s.prefetchLanding(() => !sending.current), LANDING_PREFETCH_DELAY_MS);
  useEffect(() => {
    let live = true;
    checkSession().then(
      (s) => {
        if (!live) return;
        // already signed in: to one's own landing page, as the shell's login route does
        if (s.state === 'ok') void enter(root, s.user, null);
        else setSession(s);
      },
      () => {}, // no answer: the form stays, the sign-in says what is wrong
    );
    return () => {
      live = false;
    };
  }, [root]);
  return (
    <LoginPage
      session={session}
      onFirstInput={() =>
        void loadShell().then(
          (s) => {
            s.warm();
            prefetchLanding(s);
          },
          () => {},
        )
      }
      onSending={(on) => {
        sending.current = on;
        // a failed sign-in (a wrong password): the user types again, and the landing page's code
        // the sent form cut short is fetched meanwhile
        if (!on) void loadShell().then(prefetchLanding, () => {});
      }}
      onSignedIn={(user) =>
        enter(root, user, new URLSearchParams(window.location.search).get('redirect'), LOGIN_SUCCESS_TEXT)
      }
    />
  );
}
