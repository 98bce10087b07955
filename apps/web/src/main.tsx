import './zodJitless.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LOGIN_PATH } from '@esm/contracts/basics';
import { LoginFirst } from './loginFirst.tsx';
import { checkSession } from './features/session/calls.ts';
import { sendFirstCalls } from './api/firstCalls.ts';
import { PortalFrame } from './components/PortalFrame.tsx';
import './app/global.css';

const root = createRoot(document.getElementById('root')!);

// /esm/login starts without the portal's shell (antd, react-query, router): its first load is
// React and a plain form (loginFirst.tsx). Every other page shows the portal's frame, loads the
// shell at once (its chunks are named in the page's HTML by the server, apps/api
// plugins/webPreload.ts), and asks for the session now rather than after the shell's code has
// come: the shell takes the answer over (app/afterLogin.ts, openAhead).
if (window.location.pathname.replace(/\/+$/, '') === LOGIN_PATH) {
  root.render(
    <StrictMode>
      <LoginFirst root={root} />
    </StrictMode>,
  );
} else {
  root.render(<PortalFrame />);
  const session = checkSession();
  // the menu and the page's first answers, now rather than once the shell has come (api/firstCalls.ts);
  // a failed check is the shell's to show (SessionGate)
  session.then((s) => s.state === 'ok' && sendFirstCalls(s.user.id)).catch(() => {});
  void import('./app/shell.tsx').then((s) => s.mountPortal(root, undefined, session));
}
