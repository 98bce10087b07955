import './zodJitless.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LOGIN_PATH } from '@esm/contracts/basics';
import { LoginFirst } from './loginFirst.tsx';
import { checkSession } from './features/session/calls.ts';
import './app/global.css';

const root = createRoot(document.getElementById('root')!);

// /esm/login starts without the portal's shell (antd, react-query, router): its first load is
// React and a plain form (loginFirst.tsx, issue 16). Every other page loads the shell at once.
if (window.location.pathname.replace(/\/+$/, '') === LOGIN_PATH) {
  root.render(
    <StrictMode>
      <LoginFirst />
    </StrictMode>,
  );
} else {
  // the session check starts with the page, not after the shell has loaded and rendered (issue 16)
  const session = checkSession();
  session.catch(() => {}); // the shell's SessionGate shows a failed check
  // the first page's calls start from a small module of their own, before the shell's antd is evaluated
  void import('./app/portalStart.ts').then((p) => p.startPortal(session));
  void import('./app/shell.tsx').then((s) => s.mountPortal(root, session));
}
