import { useState, type ReactNode } from 'react';
import { useToastsBelow } from './toastTop.ts';

/**
 * A drawer's title that keeps the app's toasts below the drawer's header (its title and ×) while
 * the drawer is open. A right-hand drawer reaches the middle of the window at 1366 px, where the
 * toasts appear; the toast of the action just taken (已回复, 已签署…) would otherwise sit over the
 * × for its 3 s, and stay while the pointer rests on it — the user's next click.
 */
export function ClearOfToasts({ children }: { children: ReactNode }) {
  const [el, setEl] = useState<HTMLElement | null>(null);
  useToastsBelow((el?.closest('.ant-drawer-header') as HTMLElement | null) ?? el);
  return <span ref={setEl}>{children}</span>;
}
