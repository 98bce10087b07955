/**
 * A page opened directly (a reload, a bookmark, a link in a mail) asks for its first answers as
 * soon as the session check has answered, instead of after the shell's code (~400 KB) has come
 * and run: main.tsx calls `sendFirstCalls` with the signed-in user, ~0.2 s into the load rather
 * than ~0.7 s.
 *
 * Which calls: the menu, which every page's layout asks first, and what the same page asked ahead
 * of its first render (its `fetchAhead`, api/ahead.ts) the last time this user opened it in this
 * browser — remembered here (`rememberFirstCalls`) in local storage, as the calls and their bodies,
 * for the last few pages. The page's code sends the same calls with the same bodies when it comes,
 * and takes the answers already on their way (client.ts `sendAhead`); a call whose body has changed
 * since (another page size, say) is asked again and the one sent ahead is dropped unread.
 *
 * Only the user's own pages: a page is remembered once the menu held it, and for that user only.
 * Its calls are the list's reads, which the server scopes and checks as any other call. Signing
 * out forgets them all (`forgetFirstCalls`).
 */
import { MENU_PATH } from '@esm/contracts/basics';
import { recordCalls, sendAhead } from './client.ts';

const STORAGE_KEY = 'esm.firstCalls';

/** The pages remembered, most recent first. */
const MAX_PAGES = 8;

interface Remembered {
  user: number;
  /** The page's path and query, as `pageTarget` gives it. */
  page: string;
  calls: { path: string; body: unknown }[];
}

/** The page a URL opens, as remembered: its path (no trailing slash) and its query. */
export const pageTarget = (url: URL) => `${url.pathname.replace(/\/+$/, '')}${url.search}`;

function read(): Remembered[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(list) ? (list as Remembered[]) : [];
  } catch {
    return []; // no storage (a locked-down browser) or a damaged entry: nothing is sent ahead
  }
}

function write(list: Remembered[]) {
  try {
    if (list.length) localStorage.setItem(STORAGE_KEY, JSON.stringify(list));
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // no storage: the next load of the page asks after its code has come, as before
  }
}

/** Sends the menu and the first calls remembered for `user` at this page (main.tsx, once the session is known). */
export function sendFirstCalls(user: number): void {
  sendAhead(MENU_PATH, {});
  const page = pageTarget(new URL(window.location.href));
  for (const c of read().find((r) => r.user === user && r.page === page)?.calls ?? []) sendAhead(c.path, c.body);
}

/** Runs `fetchAhead` (a page's first calls, for `user` at `target`) and remembers the calls it sent. */
export function rememberFirstCalls(user: number, target: URL, fetchAhead: () => void): void {
  const calls = recordCalls(fetchAhead);
  const page = pageTarget(target);
  const rest = read().filter((r) => !(r.user === user && r.page === page));
  write(calls.length ? [{ user, page, calls }, ...rest].slice(0, MAX_PAGES) : rest);
}

/** Signing out: nothing of this user's pages stays for the next one on this browser. */
export function forgetFirstCalls(): void {
  write([]);
}
