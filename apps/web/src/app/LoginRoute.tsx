/**
 * /esm/login reached inside the portal (after a logout): the same login page as the first load
 * (features/session/login.tsx), here with the shell's session query, router and toasts.
 */
import { useRef } from 'react';
import { App as AntApp } from 'antd';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { LOGIN_SUCCESS_TEXT, UI, type CurrentUser } from '@esm/contracts/basics';
import { LoginPage, useSession } from '../features/session/index.ts';
import { landingAfterLogin, setSignedIn } from './afterLogin.ts';

export default function LoginRoute() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { message } = AntApp.useApp();
  const signingIn = useRef(false);

  // Already signed in (not by this form, which navigates itself): to one's own landing page.
  if (session.data?.state === 'ok' && !signingIn.current)
    return <Navigate to={session.data.user.defaultPath} replace />;

  async function onSignedIn(user: CurrentUser) {
    signingIn.current = true;
    try {
      message.success({ content: LOGIN_SUCCESS_TEXT, duration: UI.toastSeconds });
      const landing = await landingAfterLogin(user, params.get('redirect'));
      navigate(landing, { replace: true });
      setSignedIn(user);
    } catch (e) {
      signingIn.current = false;
      throw e;
    }
  }
  return <LoginPage session={session.data} onSignedIn={onSignedIn} />;
}
