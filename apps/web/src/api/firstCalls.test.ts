import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MENU_PATH, PAGES } from '@esm/contracts/basics';
import { ApiError, callAt } from './client.ts';
import { forgetFirstCalls, rememberFirstCalls, sendFirstCalls } from './firstCalls.ts';

const ORIGIN = 'http://portal.test';
const PAGE = `${ORIGIN}${PAGES.dashboard.path}?standardCode=Q1`;
const LIST = 'archives/list';

/** What the page asks first: the list's first page (a fetchAhead sends its calls at once). */
const fetchAhead = (size = 10) => void callAt(LIST as never, { page: 1, results: size } as never).catch(() => {});

/** The requests that reached the network (path and body), and how they are answered. */
let sent: { path: string; body: string; id: string }[] = [];
let answer: (path: string) => Response = () => Response.json({ success: true, code: '10000000', data: [] });

beforeEach(() => {
  sent = [];
  const store = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
  vi.stubGlobal('window', { location: { href: PAGE } });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const path = url.replace('/esm-server/api/', '');
    sent.push({ path, body: String(init.body), id: (init.headers as Record<string, string>)['x-client-request-id']! });
    return answer(path);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  answer = () => Response.json({ success: true, code: '10000000', data: [] });
});

describe("a page's first calls, sent as soon as the session is known", () => {
  it('sends the menu and what the page asked last time; the page takes those answers instead of asking again', async () => {
    rememberFirstCalls(7, new URL(PAGE), () => fetchAhead());
    expect(sent.map((s) => s.path)).toEqual([LIST]);
    sent = [];

    // the next direct load: main.tsx, once the session check said user 7
    sendFirstCalls(7);
    expect(sent.map((s) => [s.path, s.body])).toEqual([
      [MENU_PATH, '{}'],
      [LIST, '{"page":1,"results":10}'],
    ]);
    // the page's code has come and asks the same: answered by the calls on their way
    await callAt(MENU_PATH as never);
    await callAt(LIST as never, { page: 1, results: 10 } as never);
    expect(sent).toHaveLength(2);
    // taken once: a later call of the same asks the server again
    await callAt(LIST as never, { page: 1, results: 10 } as never);
    expect(sent).toHaveLength(3);
  });

  it('a body changed since (another page size) is asked again; only the menu for another user or page', async () => {
    rememberFirstCalls(7, new URL(PAGE), () => fetchAhead());
    sent = [];
    sendFirstCalls(7);
    await callAt(LIST as never, { page: 1, results: 20 } as never);
    expect(sent.map((s) => s.body)).toEqual(['{}', '{"page":1,"results":10}', '{"page":1,"results":20}']);

    sent = [];
    sendFirstCalls(8);
    vi.stubGlobal('window', { location: { href: `${ORIGIN}${PAGES.dashboard.path}` } });
    sendFirstCalls(7);
    expect(sent.map((s) => s.path)).toEqual([MENU_PATH, MENU_PATH]);
  });

  it('a failure sent ahead is the taker’s, with the id the call was sent with', async () => {
    rememberFirstCalls(7, new URL(PAGE), () => fetchAhead());
    sent = [];
    answer = (path) =>
      path === LIST
        ? Response.json({ success: false, code: '10000007', message: '未登录' }, { status: 401 })
        : Response.json({ success: true, code: '10000000', data: [] });
    sendFirstCalls(7);
    const err = await callAt(LIST as never, { page: 1, results: 10 } as never, { silent: true }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('10000007');
    expect((err as ApiError).requestId).toBe(sent.find((s) => s.path === LIST)!.id);
    expect(sent).toHaveLength(2);
  });

  it('signing out forgets every page; a page that asked nothing is not kept', () => {
    rememberFirstCalls(7, new URL(PAGE), () => fetchAhead());
    rememberFirstCalls(7, new URL(`${ORIGIN}${PAGES.dashboardS.path}`), () => {});
    expect(localStorage.getItem('esm.firstCalls')).toContain(`${PAGES.dashboard.path}?standardCode=Q1`);
    expect(localStorage.getItem('esm.firstCalls')).not.toContain(PAGES.dashboardS.path);
    forgetFirstCalls();
    expect(localStorage.getItem('esm.firstCalls')).toBeNull();
    sent = [];
    sendFirstCalls(7);
    expect(sent.map((s) => s.path)).toEqual([MENU_PATH]);
  });
});
