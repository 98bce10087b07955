import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { statusErrorText } from '@esm/contracts/basics';
import { ApiError } from '../api/client.ts';

/** Where a detail page's "not found" leads back to: its list. */
export interface BackTo {
  to: string;
  label?: string;
}

function BackButton({ to, label = '返回列表' }: BackTo) {
  const navigate = useNavigate();
  return (
    <Button type="primary" onClick={() => navigate(to)}>
      {label}
    </Button>
  );
}

/**
 * A failed load shown in place of the page, with the catalogue text and a retry. A detail page
 * gives `back`: a 404 there is the record missing (or not the user's), not a system error —
 * the server's words alone and the way back, no retry that cannot succeed.
 */
export function ErrorResult({ error, onRetry, back }: { error: unknown; onRetry?: () => void; back?: BackTo }) {
  if (back && error instanceof ApiError && error.status === 404) {
    return <Result status="404" title={error.message || '内容不存在或无权查看'} extra={<BackButton {...back} />} data-testid="not-found-result" />;
  }
  const text = error instanceof ApiError ? statusErrorText(error.status, error.path) : '系统异常，请稍后重试或联系管理员';
  return (
    <Result
      status="error"
      title="加载失败"
      subTitle={error instanceof ApiError && error.message && error.message !== text ? `${error.message}（${text}）` : text}
      extra={
        onRetry || back ? (
          <>
            {onRetry && <Button type="primary" onClick={onRetry}>重试</Button>}
            {back && <BackButton {...back} />}
          </>
        ) : undefined
      }
    />
  );
}
