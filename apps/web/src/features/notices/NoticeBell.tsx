/**
 * The header bell of the legacy portal's layout variant (suppliers): the unread count on the bell, and on
 * click the counts (未读 / 待确认 / 逾期) with the latest notices, unread first — refreshed every
 * minute while a page is open. Clicking a notice opens it; 查看全部 goes to the inbox.
 */
import { useState } from 'react';
import { Badge, Button, Empty, Popover, Space, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { PAGES } from '@esm/contracts';
import { useUnreadNotices } from './api.ts';
import { DueDate, OverdueTag, RecipientStatusTag } from './labels.tsx';
import { supplierNoticeHref } from './links.ts';

export function NoticeBell({ color = '#fff' }: { color?: string }) {
  const bell = useUnreadNotices(true);
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const data = bell.data;
  const go = (to: string) => {
    setOpen(false);
    navigate(to);
  };
  const content = (
    <div style={{ width: 320 }} data-testid="notice-bell-panel">
      <Space size={12} style={{ marginBottom: 8 }}>
        <Typography.Text>未读 {data?.unread ?? 0}</Typography.Text>
        <Typography.Text>待确认 {data?.unconfirmed ?? 0}</Typography.Text>
        <Typography.Text type={data?.overdue ? 'danger' : undefined}>逾期 {data?.overdue ?? 0}</Typography.Text>
      </Space>
      {data && data.latest.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无待处理的变更通知" />
      ) : (
        <div style={{ display: 'flex', flexDirection: 'column' }}>
          {(data?.latest ?? []).map((n) => (
            <a
              key={n.id}
              href={supplierNoticeHref(n.id)}
              onClick={(e) => {
                e.preventDefault();
                go(supplierNoticeHref(n.id));
              }}
              style={{ display: 'block', padding: '8px 0', borderTop: '1px solid rgba(128,128,128,0.2)', color: 'inherit' }}
              data-testid="notice-bell-item"
            >
              <Typography.Text strong={n.recipientStatus === 'UNREAD'} ellipsis style={{ display: 'block', maxWidth: 320 }}>
                {n.title}
              </Typography.Text>
              <Space size={4} wrap style={{ fontSize: 12 }}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {n.number}
                </Typography.Text>
                <RecipientStatusTag status={n.recipientStatus} />
                {n.overdue && <OverdueTag />}
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  截止 <DueDate date={n.dueDate} overdue={n.overdue} />
                </Typography.Text>
              </Space>
            </a>
          ))}
        </div>
      )}
      <div style={{ textAlign: 'right', borderTop: '1px solid rgba(128,128,128,0.2)', paddingTop: 8 }}>
        <Button type="link" size="small" onClick={() => go(PAGES.noticeList.path)}>
          查看全部
        </Button>
      </div>
    </div>
  );
  const count = data?.unread ?? 0;
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) void bell.refetch();
      }}
      title="图纸变更通知"
      content={content}
    >
      <Button type="text" aria-label={count ? `变更通知，${count} 条未读` : '变更通知'} data-testid="notice-bell" style={{ paddingInline: 6 }}>
        <Badge count={count} size="small" overflowCount={99}>
          <BellOutlined style={{ color, fontSize: 18 }} aria-hidden aria-label="通知" />
        </Badge>
      </Button>
    </Popover>
  );
}

/**
 * A supplier's change-notice work in one line (未读 / 待确认 / 逾期, and 查看 to the inbox): the top
 * of the header bell's panel, which lists every kind of notification.
 */
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
