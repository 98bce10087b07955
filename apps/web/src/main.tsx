import './zodJitless.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LOGIN_PATH } from '@esm/contracts/basics';
import { LoginFirst } from './loginFirst.tsx';
import { checkSession } from './features/session/calls.ts';
import './app/global.css';

const root = createRoot(document.getElementById('root')!);

// /esm/login starts without the portal's shell (antd, react-query, router): its first load is
// React and a plain form (loginFirst.tsx). Every other page loads the shell at once.
if (window.location.pathname.replace(/\/+$/, '') === LOGIN_PATH) {
  root.render(
    <StrictMode>
      <LoginFirst root={root} />
    </StrictMode>,
  );
} else {
  // the session check goes out now, beside the shell's download, not after it
  const check = checkSession();
  check.catch(() => {}); // the shell's session query reports it
  void import('./app/shell.tsx').then((s) => {
    s.adoptSessionCheck(check);
    s.mountPortal(root);
  });
}
