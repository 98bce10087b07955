/** The top of a notice page: title, number and state tags, and what a reader must know first. */
import type { ReactNode } from 'react';
import { Alert, Descriptions, Space, Tag, Typography } from 'antd';
import type { NoticeRow } from '@esm/contracts';
import { formatDateTime } from '../../components/labels.tsx';
import { DueDate, NoticeStatusTag } from './labels.tsx';

type Notice = Pick<
  NoticeRow,
  | 'number'
  | 'title'
  | 'status'
  | 'reason'
  | 'productLineName'
  | 'dueDate'
  | 'publishedAt'
  | 'publishedByName'
  | 'closedAt'
  | 'withdrawnAt'
  | 'withdrawReason'
> & { description: string | null };

export function NoticeHeader({
  notice,
  tags,
  actions,
  overdue,
  items = [],
}: {
  notice: Notice;
  tags?: ReactNode;
  actions?: ReactNode;
  overdue?: boolean;
  items?: { label: string; children: ReactNode }[];
}) {
  return (
    <div data-testid="notice-header">
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 12, marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {notice.title}
        </Typography.Title>
        <Space size={4} wrap>
          <Tag>{notice.number}</Tag>
          <NoticeStatusTag status={notice.status} />
          {tags}
        </Space>
        <div style={{ flex: 1 }} />
        {actions && (
          <Space wrap size={8}>
            {actions}
          </Space>
        )}
      </div>
      {notice.status === 'WITHDRAWN' && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={`该通知已于 ${formatDateTime(notice.withdrawnAt)} 撤回`}
          description={notice.withdrawReason === undefined ? undefined : `撤回原因：${notice.withdrawReason ?? '—'}`}
        />
      )}
      {notice.status === 'CLOSED' && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={`该通知已于 ${formatDateTime(notice.closedAt)} 关闭，不再接受确认`}
        />
      )}
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 3 }}
        items={[
          { key: 'line', label: '产品线', children: notice.productLineName },
          { key: 'due', label: '确认截止日期', children: <DueDate date={notice.dueDate} overdue={overdue} /> },
          {
            key: 'published',
            label: '发布',
            children: notice.publishedAt
              ? `${formatDateTime(notice.publishedAt)} ${notice.publishedByName ?? ''}`
              : '未发布',
          },
          { key: 'reason', label: '变更原因', span: 'filled' as const, children: notice.reason },
          ...(notice.description
            ? [{ key: 'desc', label: '说明', span: 'filled' as const, children: notice.description }]
            : []),
          ...items.map((i, k) => ({ key: `x${k}`, ...i })),
        ]}
      />
    </div>
  );
}
