/**
 * The first calls of a page load of the portal, in a module of its own: main.tsx loads it beside
 * the shell (app/shell.tsx), and it runs as soon as it is in, before the shell's antd modules have
 * been evaluated. The shell calls it too (whichever comes first starts everything, once), so the
 * session check is in the query cache before SessionGate asks for it.
 */
import { BASE_PATH } from '@esm/contracts/basics';
import { menuQuery } from '../features/menu/index.ts';
import { sessionQuery, type SessionCheck } from '../features/session/index.ts';
import { PAGES, PREFETCHES } from '../features/pages.ts';
import { loadLayout, routePath } from './afterLogin.ts';
import { queryClient } from './queryClient.ts';

let started = false;

/**
 * A page load of the portal (shell.tsx; after a sign-in, the landing page): everything the first
 * page needs is asked for at once instead of one after the other as the components render — the
 * session check (already on its way: main.tsx), the layout chunk and the page's chunk now; the
 * menu and the page's first data calls (features/pages.ts PREFETCHES) as soon as the session
 * answers. The components find them in the cache (same keys) or in flight (issue 16: the rows
 * used to be asked for ~2 s after the page load, after the whole page's first render).
 */
export function startPortal(session: Promise<SessionCheck>) {
  if (started) return;
  started = true;
  void queryClient.prefetchQuery({ ...sessionQuery, queryFn: () => session });
  void loadLayout().catch(() => {});
  const path = routePath(window.location.pathname);
  void PAGES[path]?.().catch(() => {});
  session.then(
    (s) => {
      if (s.state !== 'ok') return;
      void queryClient.prefetchQuery(menuQuery(s.user.id));
      // /esm leads to the user's default page (IndexRedirect), unless a company sign-in returns elsewhere
      const target = path === BASE_PATH ? (s.returnTo ? undefined : s.user.defaultPath) : path;
      if (!target) return;
      if (target !== path) void PAGES[target]?.().catch(() => {});
      PREFETCHES[target]?.(queryClient, new URLSearchParams(window.location.search));
    },
    () => {}, // SessionGate shows the failed check
  );
}
