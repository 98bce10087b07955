import { Alert, Button } from 'antd';
import { serverErrorText } from './serverErrors.ts';

/**
 * Above a list whose last refresh failed while it still shows the rows of an earlier answer: those
 * rows may be out of date, and the user must be able to tell (the toast is gone after 3 s).
 */
export function StaleWarning({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Alert
      type="warning"
      showIcon
      role="alert"
      data-testid="stale-warning"
      style={{ marginBottom: 8 }}
      title={`数据未能刷新：${serverErrorText(error, '刷新失败')}。下方仍是上次加载的结果。`}
      action={
        <Button size="small" onClick={onRetry}>
          重试
        </Button>
      }
    />
  );
}
