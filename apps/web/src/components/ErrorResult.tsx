import { Button, Result } from 'antd';
import { statusErrorText } from '@esm/contracts/basics';
import { ApiError } from '../api/client.ts';

/** A failed load shown in place of the page, with the catalogue text and a retry. */
export function ErrorResult({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const text = error instanceof ApiError ? statusErrorText(error.status, error.path) : '系统异常，请稍后重试或联系管理员';
  return (
    <Result
      status="error"
      title="加载失败"
      subTitle={error instanceof ApiError && error.message && error.message !== text ? `${error.message}（${text}）` : text}
      extra={onRetry ? <Button type="primary" onClick={onRetry}>重试</Button> : undefined}
    />
  );
}
