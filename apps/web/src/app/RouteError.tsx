/**
 * What a route shows when its code failed to load or its page threw while rendering, instead of
 * React Router's English developer screen. Inside the layout (the page's boundary) the header and
 * menu stay, so the user can reload or go elsewhere; at the top level (the layout itself failed)
 * the same message stands alone.
 *
 * A page's code that is missing after a redeploy (the open page still names the previous build's
 * chunk files, which the server no longer has) cannot come back by retrying: the page is
 * reloaded once, automatically, to fetch the new build. A network blip is not fixed by a reload
 * the user did not ask for, so it waits for 重新加载.
 */
import { useEffect, useState } from 'react';
import { Button, Result } from 'antd';
import { useRouteError } from 'react-router';

/** The browsers' words for a dynamic import or its preload that failed (Chromium, Firefox, Safari, Vite's CSS preload). */
const CHUNK_FAILURE =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i;

/** The automatic reload's guard: the chunk it was for, so a chunk still missing after it never loops. */
export const CHUNK_RELOAD_KEY = 'esm.chunkReload';

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_FAILURE.test(error.message);
}

/** The failed chunk's address, when the browser's message names it. */
function chunkUrl(error: Error): string | null {
  const m = /(https?:\/\/\S+?\.(?:m?js|css))/.exec(error.message);
  return m?.[1] ?? null;
}

/**
 * Whether the chunk is gone from the server (a new build replaced it) rather than unreachable:
 * asked again, the server answers 404. Unknown (no address, no answer) counts as not gone.
 */
async function chunkGone(url: string | null): Promise<boolean> {
  if (!url) return false;
  try {
    const res = await fetch(url, { method: 'HEAD', cache: 'no-store' });
    return res.status === 404;
  } catch {
    return false;
  }
}

function readGuard(): string | null {
  try {
    return sessionStorage.getItem(CHUNK_RELOAD_KEY);
  } catch {
    return null;
  }
}

/** 'checking' while asking whether a new build replaced the chunk; 'reloading' once the reload is under way. */
function useReloadForNewBuild(error: unknown): 'checking' | 'reloading' | 'shown' {
  const chunk = isChunkLoadError(error);
  const [state, setState] = useState<'checking' | 'reloading' | 'shown'>(chunk ? 'checking' : 'shown');
  useEffect(() => {
    if (!chunk) return;
    let live = true;
    const url = chunkUrl(error as Error);
    void chunkGone(url).then((gone) => {
      if (!live) return;
      // reloaded for this very chunk already and still missing: say so instead of reloading again
      if (gone && url && readGuard() !== url) {
        try {
          sessionStorage.setItem(CHUNK_RELOAD_KEY, url);
        } catch {
          // no storage: no guard, so no automatic reload either
          setState('shown');
          return;
        }
        setState('reloading');
        window.location.reload();
      } else setState('shown');
    });
    return () => {
      live = false;
    };
  }, [chunk, error]);
  return state;
}

/** The message itself; `standalone`: outside the layout (the top-level boundary), centred on the page. */
export function RouteError({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  const state = useReloadForNewBuild(error);
  const chunk = isChunkLoadError(error);
  useEffect(() => {
    // for whoever reads the console: what actually went wrong
    if (!chunk) console.error(error);
  }, [chunk, error]);
  const result = (
    <Result
      status={chunk ? 'warning' : 'error'}
      title={chunk ? '页面加载失败' : '页面出错了'}
      subTitle={
        state === 'shown'
          ? chunk
            ? '页面的程序文件未能下载，可能是网络中断或系统刚刚更新。请重新加载页面。'
            : '页面显示时发生错误。请重新加载页面；如仍出现，请联系管理员。'
          : state === 'checking'
            ? '页面的程序文件未能下载，正在检查原因…'
            : '系统已更新，正在重新加载页面…'
      }
      extra={
        state === 'shown' ? (
          <Button type="primary" onClick={() => window.location.reload()}>
            重新加载
          </Button>
        ) : undefined
      }
      data-testid="route-error"
    />
  );
  return standalone ? (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>{result}</div>
  ) : (
    result
  );
}

/** The top level's boundary: nothing of the portal rendered, so the message stands alone. */
export function RootRouteError() {
  return <RouteError standalone />;
}
