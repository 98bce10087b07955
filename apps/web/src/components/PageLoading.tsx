import { Spin } from 'antd';
import { PortalFrame } from './PortalFrame.tsx';

/** A page's spinner; `code`: its code is still loading (a Suspense fallback), else its data. */
export function PageLoading({ code = false }: { code?: boolean }) {
  return (
    <div
      data-testid="page-loading"
      data-loading={code ? 'code' : 'data'}
      style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240, height: '100%' }}
    >
      <Spin size="large" description="加载中…">
        <div style={{ width: 120, height: 80 }} />
      </Spin>
    </div>
  );
}

/**
 * The portal's frame with a spinner below it: what the shell shows while the session, the layout's
 * code or the menu is on its way, the same frame main.tsx draws first, so it never blinks out.
 */
export function FrameLoading({ code = false }: { code?: boolean }) {
  return (
    <PortalFrame>
      <PageLoading code={code} />
    </PortalFrame>
  );
}
