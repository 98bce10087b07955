/**
 * From a successful sign-in to the landing page, as fast as the network allows: the
 * landing page used to arrive as a chain — layout chunk, then the menu, then the page's chunk,
 * then its data — each waiting for the one before. Here the layout chunk, the menu and the
 * landing page's chunk are all asked for at once, as soon as the user is known.
 */
import { DEFAULT_PAGE, PAGES, isReturnPath, type CurrentUser, type PageKey } from '@esm/contracts/basics';
import { menuQuery } from '../features/menu/index.ts';
import { sessionQuery, type SessionCheck } from '../features/session/index.ts';
import { PAGE_MODULES, type PageModule } from '../features/pages.ts';
import { queryClient } from './queryClient.ts';
import { remembered, type Loader } from '../lib/lazyLoaded.ts';
import { rememberFirstCalls } from '../api/firstCalls.ts';

/** The shell's layout chunk (the router's lazy BasicLayout loads the same module). */
export const loadLayout = remembered(() => import('./layout/BasicLayout.tsx'));

/**
 * Every built page's loader by its path, keeping its page once loaded: the router renders a page
 * fetched before (while the user typed) at once, without a Suspense fallback (lib/lazyLoaded.ts).
 */
export const PAGE_LOADERS: Record<string, Loader<PageModule>> = Object.fromEntries(
  Object.entries(PAGE_MODULES).map(([key, load]) => [PAGES[key as PageKey].path, remembered(load)]),
);

/** A target's page: the path without its query, fragment or trailing slash. */
const pageOf = (target: string) => target.split(/[?#]/)[0]!.replace(/\/+$/, '');

/**
 * Where a user lands after signing in: the page they were sent away from (only a path inside the
 * portal: no open redirect), when it is one of
 * their own menu's pages — another user's page left in ?redirect= (a shared browser) would only
 * say 没有权限 — else their type's landing page.
 */
async function landingOf(
  user: CurrentUser,
  redirect: string | null,
  menu: () => Promise<{ router: string }[]>,
): Promise<string> {
  if (!isReturnPath(redirect)) return user.defaultPath;
  const target = redirect;
  const path = pageOf(target);
  if (path === user.defaultPath) return target;
  return (await menu()).some((m) => m.router === path) ? target : user.defaultPath;
}

/** This browser's last landing page (a path; local storage): the one the next sign-in most likely lands on. */
const LAST_LANDING_KEY = 'esm.lastLanding';

/**
 * While the user types on the login page: the landing page's code, so that after the sign-in only
 * its data is fetched (the landing page's ~30 chunks took ~0.3 s after the sign-in
 * answered). The page this browser landed on last time; a browser that never signed in gets every
 * user type's landing page (DEFAULT_PAGE: four pages sharing most of their chunks), as which one
 * is not known until the account is. One page at a time, and none once `typing()` says the form
 * has been sent: a page's modules evaluated beside the sign-in slow the landing page down.
 */
export async function prefetchLanding(typing: () => boolean): Promise<void> {
  let last: string | null = null;
  try {
    last = localStorage.getItem(LAST_LANDING_KEY);
  } catch {
    // no storage (a locked-down browser): as a first sign-in
  }
  const pages = last && PAGE_LOADERS[last] ? [last] : [...new Set(Object.values(DEFAULT_PAGE))];
  // the layout first (warm() asked for it already): a page marked below renders with it at once
  await loadLayout().catch(() => {});
  for (const p of pages) {
    if (!typing()) return;
    // marked for traces (and e2e/shell.spec.ts): this page now renders without waiting
    await PAGE_LOADERS[p]?.().then(
      () => performance.mark(`esm:prefetched ${p}`),
      () => {},
    );
  }
}

/** The landing page for `user`, with its layout, menu and page chunk already on their way. */
export async function landingAfterLogin(user: CurrentUser, redirect: string | null): Promise<string> {
  void loadLayout();
  try {
    localStorage.setItem(LAST_LANDING_KEY, user.defaultPath);
  } catch {
    // no storage: the next sign-in prefetches every landing page
  }
  const menu = queryClient.fetchQuery(menuQuery(user.id));
  menu.catch(() => {}); // the layout shows a failed menu itself
  const landing = await landingOf(user, redirect, () => menu);
  const load = PAGE_LOADERS[pageOf(landing)];
  // the page's first answers too, now rather than after its first render (a page that says which),
  // remembered for the next time the page is opened directly (api/firstCalls.ts)
  const target = new URL(landing, location.origin);
  const fetchAhead = (page: PageModule) =>
    page.fetchAhead && rememberFirstCalls(user.id, target, () => page.fetchAhead?.(queryClient, target));
  if (load?.loaded) fetchAhead(load.loaded);
  else load?.().then(fetchAhead, () => {});
  return landing;
}

/**
 * A page opened directly (a reload, a bookmark, a link in a mail): everything it needs asked for as
 * soon as it can be. It used to come as a chain — the shell's code, the session check, the
 * layout's code, the menu, the page's code, its first answers — each link waiting for the one
 * before and for a render: the table's rows were asked for ~1.6 s after the page was.
 *
 * Now the session check (`session`, started by main.tsx before the shell's code came) is the
 * session query's answer; the layout's and the page's code are fetched at once; when the user is
 * known, the menu; and when the menu holds the page, the page's first answers (its `fetchAhead`, as
 * after a sign-in). main.tsx sent the menu and the calls this page made here last time as soon as
 * the session was known: these take those answers (api/firstCalls.ts). A page not in the menu
 * asks for nothing ahead: the layout says 没有权限 without asking the server. A failure here is
 * shown where it always was: the session gate, the layout (menu) or the router (the page's code)
 * ask again and say so.
 */
export function openAhead(session: Promise<SessionCheck>): void {
  void queryClient.fetchQuery({ ...sessionQuery, queryFn: () => session }).catch(() => {});
  void loadLayout().catch(() => {});
  const path = pageOf(location.pathname);
  const load = PAGE_LOADERS[path];
  const page = load ? (load.loaded ? Promise.resolve(load.loaded) : load()).catch(() => undefined) : undefined;
  void session
    .then(async (s) => {
      if (s.state !== 'ok' || !page) return;
      const menu = await queryClient.fetchQuery(menuQuery(s.user.id));
      const fetchAhead = menu.some((m) => m.router === path) ? (await page)?.fetchAhead : undefined;
      const target = new URL(location.href);
      if (fetchAhead) rememberFirstCalls(s.user.id, target, () => fetchAhead(queryClient, target));
    })
    .catch(() => {});
}

/** The session as the shell's session check would have found it. */
export function setSignedIn(user: CurrentUser) {
  const signedIn: SessionCheck = { state: 'ok', user };
  queryClient.setQueryData(sessionQuery.queryKey, signedIn);
}
