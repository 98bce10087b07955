/**
 * The portal's frame while its code and first answers are on their way: the header's bar (logo and
 * title, as AppHeader draws them; the logo alone below 769 px, as NarrowNavbar) over the page's
 * background (dark on the dark theme), `children` (a spinner) below. Plain elements and global.css,
 * no antd: main.tsx shows it at once on a page opened directly, before the shell's code has come,
 * and the shell keeps it until the layout renders (the session check, the layout's code, the
 * menu), so the frame never blinks out between the two. The header's title is the largest text of
 * most landing pages: it now paints ~1 s earlier (docs/benchmarks.md, lighthouse).
 */
import type { ReactNode } from 'react';
import { storedThemeName } from '../lib/preferences.ts';

export function PortalFrame({ children }: { children?: ReactNode }) {
  return (
    <div className={storedThemeName() === 'dark' ? 'esm-frame esm-frame-dark' : 'esm-frame'} data-testid="portal-frame">
      <header className="esm-frame-bar">
        <img src="/esm/logo.svg" alt="ESM" width={28} height={28} />
        <span>ESM 图纸档案管理平台</span>
      </header>
      {children}
    </div>
  );
}
