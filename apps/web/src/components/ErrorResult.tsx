import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { statusErrorText } from '@esm/contracts/basics';
import { ApiError } from '../api/client.ts';

/**
 * Where a detail's "not found" leads back to: its list — a page's address, or (a drawer or a
 * dialog over the list) closing it.
 */
export type BackTo = { label?: string } & ({ to: string } | { onBack: () => void });

function BackButton({ label = '返回列表', ...back }: BackTo) {
  const navigate = useNavigate();
  return (
    <Button type="primary" onClick={() => ('to' in back ? navigate(back.to) : back.onBack())}>
      {label}
    </Button>
  );
}

/**
 * A failed load shown in place of the page, with the catalogue text and a retry. A detail page
 * gives `back`: a 404 there is the record missing (or not the user's), not a system error —
 * one message (`notFound`, e.g. "会签单不存在或无权查看", else the server's words) and the way back,
 * no retry that cannot succeed. Its call is made silent, so that no toast says it a second time.
 */
export function ErrorResult({
  error,
  onRetry,
  back,
  notFound,
}: {
  error: unknown;
  onRetry?: () => void;
  back?: BackTo;
  notFound?: string;
}) {
  if (back && error instanceof ApiError && error.status === 404) {
    return (
      <Result
        status="404"
        title={notFound ?? (error.message || '内容不存在或无权查看')}
        extra={<BackButton {...back} />}
        data-testid="not-found-result"
      />
    );
  }
  const text =
    error instanceof ApiError ? statusErrorText(error.status, error.path) : '系统异常，请稍后重试或联系管理员';
  return (
    <Result
      status="error"
      title="加载失败"
      subTitle={
        error instanceof ApiError && error.message && error.message !== text ? `${error.message}（${text}）` : text
      }
      extra={
        onRetry || back ? (
          <>
            {onRetry && (
              <Button type="primary" onClick={onRetry}>
                重试
              </Button>
            )}
            {back && <BackButton {...back} />}
          </>
        ) : undefined
      }
    />
  );
}
