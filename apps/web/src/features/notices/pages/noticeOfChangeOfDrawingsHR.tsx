/**
 * /esm/drawingManagement/noticeOfChangeOfDrawingsHR?id= — 图纸变更通知单 (manufacturer): the notice,
 * its changes (each version viewable), the recipients matrix with filter, remind and export, and
 * the audit trail. A hidden menu entry reached from the list; 返回上一级 in the breadcrumb bar.
 */
import { useState } from 'react';
import { Card, Result, Skeleton, Timeline, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { NOTICE_EVENT_LABELS, PAGES } from '@esm/contracts';
import { FileViewer } from '../../files/index.ts';
import { ErrorResult } from '../../../components/ErrorResult.tsx';
import { actorText, formatDateTime } from '../../../components/labels.tsx';
import { useNoticeDetail } from '../api.ts';
import { ChangesTable, viewerFile } from '../ChangesTable.tsx';
import { OverdueTag } from '../labels.tsx';
import { NoticeHeader } from '../NoticeHeader.tsx';
import { RecipientMatrix } from '../RecipientMatrix.tsx';
import { useNoticeActions } from '../useNoticeActions.tsx';

export default function NoticeOfChangeOfDrawingsHRPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const detail = useNoticeDetail(valid ? id : undefined);
  const actions = useNoticeActions();
  const [viewing, setViewing] = useState<ReturnType<typeof viewerFile> | null>(null);

  if (!valid)
    return <Result status="404" title="变更通知不存在" subTitle="链接中缺少通知编号，请从变更通知列表进入。" />;
  if (detail.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (detail.isError)
    return (
      <ErrorResult error={detail.error} onRetry={() => detail.refetch()} back={{ to: PAGES.changeNoticeList.path }} />
    );
  const n = detail.data;

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <NoticeHeader
        notice={n}
        overdue={n.overdueCount > 0}
        tags={n.overdueCount > 0 && <OverdueTag />}
        actions={actions.buttons(n, { link: false, size: 'middle' })}
        items={[
          { label: '创建', children: `${formatDateTime(n.createdAt)} ${n.createdByName ?? ''}` },
          ...(n.closedAt ? [{ label: '关闭', children: `${formatDateTime(n.closedAt)} ${n.closedByName ?? ''}` }] : []),
          ...(n.withdrawnAt
            ? [{ label: '撤回', children: `${formatDateTime(n.withdrawnAt)} ${n.withdrawnByName ?? ''}` }]
            : []),
        ]}
      />
      <Card size="small" title={`变更内容（${n.changes.length} 项）`}>
        <ChangesTable changes={n.changes} viewOld onView={(change, file) => setViewing(viewerFile(change, file))} />
      </Card>
      <Card
        size="small"
        title={n.status === 'DRAFT' ? '接收方（发布时确定）' : `接收方（${n.recipientCount} 家供应商）`}
        data-testid="recipient-matrix"
      >
        <RecipientMatrix notice={n} />
      </Card>
      <Card size="small" title="操作记录">
        <Timeline
          items={n.events.map((e) => ({
            key: e.id,
            color: e.action === 'WITHDRAW' ? 'red' : e.action === 'CONFIRM' ? 'green' : 'blue',
            children: (
              <div>
                <Typography.Text strong>{NOTICE_EVENT_LABELS[e.action]}</Typography.Text>
                <Typography.Text type="secondary">
                  {' '}
                  {[formatDateTime(e.createdAt), actorText(e.userName, e.userAccount, e.ip)]
                    .filter(Boolean)
                    .join(' · ')}
                </Typography.Text>
                {e.detail && <div style={{ wordBreak: 'break-all' }}>{e.detail}</div>}
              </div>
            ),
          }))}
        />
      </Card>
      <FileViewer file={viewing} onClose={() => setViewing(null)} />
      {actions.dialogs}
    </div>
  );
}
