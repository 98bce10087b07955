import './zodJitless.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LOGIN_PATH } from '@esm/contracts/basics';
import { LoginFirst } from './loginFirst.tsx';
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
  void import('./app/shell.tsx').then((s) => s.mountPortal(root));
}
