import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser, Envelope, LoginRequest, MenuEntry } from '@esm/contracts';
import { ApiError, post } from './client.ts';

export type SessionCheck =
  | { state: 'ok'; user: CurrentUser }
  | { state: 'anonymous' }
  | { state: 'blocked'; code: number; homeUrl: string };

/** user/current (spec §4): code "0", 10000007 (not signed in) or a session error 201-205. */
export async function checkSession(): Promise<SessionCheck> {
  try {
    const res = await post<CurrentUser | null>('user/current', {}, { silent: true });
    return res.data ? { state: 'ok', user: res.data } : { state: 'anonymous' };
  } catch (e) {
    if (e instanceof ApiError) {
      const code = Number(e.code);
      if (code >= 201 && code <= 205) return { state: 'blocked', code, homeUrl: String(e.body?.homeUrl ?? '/esm/login') };
      if (e.status === 401) return { state: 'anonymous' };
    }
    throw e;
  }
}

export const sessionQuery = queryOptions({ queryKey: ['session'], queryFn: checkSession, staleTime: 60_000, retry: false });
export const useSession = () => useQuery(sessionQuery);

export const menuQuery = (userId: number) =>
  queryOptions({
    queryKey: ['menu', userId],
    queryFn: async () => (await post<MenuEntry[]>('main/getRoleFunction')).data,
    staleTime: 10 * 60_000,
  });
export const useMenu = (userId: number | undefined) => useQuery({ ...menuQuery(userId ?? 0), enabled: Boolean(userId) });

export const login = (body: LoginRequest) => post<CurrentUser>('user/login', body, { silent: true }) as Promise<Envelope<CurrentUser>>;
export const logout = () => post<null>('user/logout', { a: 1 });
