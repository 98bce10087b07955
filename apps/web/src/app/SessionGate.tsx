/**
 * The session check on load: code "0" → the portal; not signed in → /esm/login;
 * 201-205 → a blocking dialog that leads to the company home page.
 */
import { createContext, useContext, useEffect } from 'react';
import { App as AntApp } from 'antd';
import { Outlet, Navigate, useLocation } from 'react-router';
import {
  BASE_PATH,
  LOGIN_PATH,
  SESSION_ERRORS,
  SESSION_ERROR_BODY,
  UI,
  type CurrentUser,
  type SessionErrorCode,
} from '@esm/contracts/basics';
import { useSession, withoutHandoff } from '../features/session/index.ts';
import { FrameLoading } from '../components/PageLoading.tsx';
// the shell's (landing-app chunk, vite.config.ts), never the login page's first load
import { ErrorResult } from '../components/ErrorResult.tsx';

const UserContext = createContext<CurrentUser | null>(null);

export function useCurrentUser(): CurrentUser {
  const user = useContext(UserContext);
  if (!user) throw new Error('useCurrentUser outside SessionGate');
  return user;
}

function BlockingDialog({ code, homeUrl }: { code: number; homeUrl: string }) {
  const { modal } = AntApp.useApp();
  useEffect(() => {
    const m = modal.error({
      title: SESSION_ERRORS[code as SessionErrorCode] ?? '登录失效',
      content: SESSION_ERROR_BODY,
      okText: '确定',
      width: UI.confirmWidth,
      closable: false,
      keyboard: false,
      mask: { closable: false },
      onOk: () => window.location.assign(homeUrl),
    });
    return () => m.destroy();
  }, [code, homeUrl, modal]);
  return null;
}

export function SessionGate() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <FrameLoading />;
  if (session.isError) return <ErrorResult error={session.error} onRetry={() => session.refetch()} />;
  const s = session.data;
  if (s.state === 'blocked') return <BlockingDialog code={s.code} homeUrl={s.homeUrl} />;
  if (s.state === 'anonymous') {
    const back = location.pathname + location.search;
    return <Navigate to={`${LOGIN_PATH}?redirect=${encodeURIComponent(back)}`} replace />;
  }
  // Signed in from the company home page: the hand-off's parameters leave the address bar (at
  // /esm the index redirect does it, keeping standardCode).
  const rest = withoutHandoff(location.search);
  if (rest !== undefined && location.pathname.replace(/\/+$/, '') !== BASE_PATH)
    return <Navigate to={location.pathname + rest + location.hash} replace />;
  return (
    <UserContext.Provider value={s.user}>
      <Outlet />
    </UserContext.Provider>
  );
}
