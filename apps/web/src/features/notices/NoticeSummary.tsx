/**
 * A supplier's change-notice counts (未读 / 待确认 / 逾期) for the top of the header bell's panel
 * (features/notifications/NotificationBell.tsx), refreshed every minute while a page is open.
 */
import { Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { PAGES } from '@esm/contracts';
import { useUnreadNotices } from './api.ts';

/** 未读 / 待确认 / 逾期, and 查看 to the inbox. */
export function NoticeSummary({ onGo }: { onGo?: () => void }) {
  const data = useUnreadNotices(true).data;
  const navigate = useNavigate();
  return (
    <Space size={12} wrap style={{ marginBottom: 8 }} data-testid="notice-summary">
      <Typography.Text strong>变更通知</Typography.Text>
      <Typography.Text>未读 {data?.unread ?? 0}</Typography.Text>
      <Typography.Text>待确认 {data?.unconfirmed ?? 0}</Typography.Text>
      <Typography.Text type={data?.overdue ? 'danger' : undefined}>逾期 {data?.overdue ?? 0}</Typography.Text>
      <Button
        type="link"
        size="small"
        style={{ paddingInline: 0 }}
        onClick={() => {
          onGo?.();
          navigate(PAGES.noticeList.path);
        }}
      >
        查看
      </Button>
    </Space>
  );
}
