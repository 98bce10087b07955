/**
 * The header bell, for every user type: how many of the user's notifications are unread, and on
 * click the latest ones with links — a click opens the page it concerns and marks it read;
 * 全部已读 marks them all; 查看全部 opens the centre (/esm/notifications).
 */
import { useState, type ReactNode } from 'react';
import { Badge, Button, Empty, Popover, Space, Typography } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { PAGES, type NotificationRow } from '@esm/contracts';
import { formatDateTime } from '../../components/labels.tsx';
import { useMarkRead, useNotificationBell } from './api.ts';
import { KindTag } from './labels.tsx';

/** `summary`: more to show at the top of the panel (a supplier's change-notice counts). */
export function NotificationBell({ color = '#fff', summary }: { color?: string; summary?: ReactNode }) {
  const bell = useNotificationBell();
  const markRead = useMarkRead();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const data = bell.data;
  const go = (to: string) => {
    setOpen(false);
    navigate(to);
  };
  const openOne = (n: NotificationRow) => {
    if (!n.readAt) void markRead([n.id]);
    go(n.linkPath);
  };
  const count = data?.unread ?? 0;
  const content = (
    <div style={{ width: 320, maxWidth: 'calc(100vw - 32px)' }} data-testid="notification-bell-panel">
      {summary}
      {data && data.latest.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无通知" />
      ) : (
        <div style={{ display: 'flex', flexDirection: 'column' }}>
          {(data?.latest ?? []).map((n) => (
            <a
              key={n.id}
              href={n.linkPath}
              onClick={(e) => {
                e.preventDefault();
                openOne(n);
              }}
              style={{
                display: 'block',
                padding: '8px 0',
                borderTop: '1px solid rgba(128,128,128,0.2)',
                color: 'inherit',
              }}
              data-testid="notification-bell-item"
            >
              <Typography.Text strong={!n.readAt} ellipsis style={{ display: 'block', maxWidth: 320 }}>
                {!n.readAt && <Badge status="processing" />} {n.subject}
              </Typography.Text>
              <Space size={4} wrap style={{ fontSize: 12 }}>
                <KindTag kind={n.kind} />
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {formatDateTime(n.createdAt).slice(0, 16)}
                </Typography.Text>
                {n.dueDate && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    截止 {n.dueDate}
                  </Typography.Text>
                )}
              </Space>
            </a>
          ))}
        </div>
      )}
      <div
        style={{
          display: 'flex',
          justifyContent: 'space-between',
          borderTop: '1px solid rgba(128,128,128,0.2)',
          paddingTop: 8,
        }}
      >
        <Button type="link" size="small" disabled={count === 0} onClick={() => void markRead()}>
          全部已读
        </Button>
        <Button type="link" size="small" onClick={() => go(PAGES.notifications.path)}>
          查看全部
        </Button>
      </div>
    </div>
  );
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) void bell.refetch();
      }}
      title="通知"
      content={content}
    >
      <Button
        type="text"
        aria-label={count ? `通知，${count} 条未读` : '通知'}
        data-testid="notification-bell"
        style={{ paddingInline: 6 }}
      >
        <Badge count={count} size="small" overflowCount={99}>
          <BellOutlined style={{ color, fontSize: 18 }} aria-hidden aria-label="通知" />
        </Badge>
      </Button>
    </Popover>
  );
}
