/**
 * /esm/supplier/noticeOfChangeOfDrawings?id= — 图纸变更通知单 (supplier): opening it marks it read.
 * Each change's new version is opened with 查看 in the file viewer (through the confidentiality
 * agreement gate); once every new version has been viewed, 确认 records the confirmation with the
 * versions and their sha256. The server decides: a confirmation it refuses says why, here.
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Popconfirm, Skeleton, Tag, Typography } from 'antd';
import { CheckCircleOutlined, EyeOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { PAGES, noticesApi, type SupplierNoticeChange } from '@esm/contracts';
import { FileViewer } from '../../files/index.ts';
import { useKeepsecretGate } from '../../standardlog/index.ts';
import { ApiError } from '../../../api/client.ts';
import { ErrorResult, type BackTo } from '../../../components/ErrorResult.tsx';
import { formatDateTime } from '../../../components/labels.tsx';
import { serverErrorText } from '../../../components/serverErrors.ts';
import { confirmNotice, useSupplierNotice } from '../api.ts';
import { ChangesTable, viewerFile } from '../ChangesTable.tsx';
import { OverdueTag, RecipientStatusTag } from '../labels.tsx';
import { NoticeHeader } from '../NoticeHeader.tsx';

const viewedColumn: ColumnsType<SupplierNoticeChange> = [
  {
    title: '查看状态',
    dataIndex: 'viewedAt',
    width: 170,
    render: (at: string | null) =>
      at ? (
        <Tag color="green" icon={<EyeOutlined />} title={`本公司首次查看于 ${formatDateTime(at)}`}>
          已查看 {formatDateTime(at).slice(5, 16)}
        </Tag>
      ) : (
        <Tag color="orange">未查看</Tag>
      ),
  },
];

/** A notice that cannot be shown leads back to the inbox. */
const BACK: BackTo = { to: PAGES.noticeList.path };

export default function NoticeOfChangeOfDrawingsPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const notice = useSupplierNotice(valid ? id : undefined);
  const { run, gate } = useKeepsecretGate();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [viewing, setViewing] = useState<ReturnType<typeof viewerFile> | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  if (!valid) return <ErrorResult error={new ApiError(404, '404', '变更通知不存在或无权查看', '')} back={BACK} />;
  if (notice.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (notice.isError) return <ErrorResult error={notice.error} onRetry={() => notice.refetch()} back={BACK} />;
  const n = notice.data;
  const unseen = n.changes.filter((c) => !c.viewedAt);
  const open = n.status === 'PUBLISHED' && n.recipientStatus !== 'CONFIRMED';

  const refresh = () =>
    Promise.all(
      [noticesApi.supplierFind, noticesApi.unread, noticesApi.inbox].map((e) =>
        qc.invalidateQueries({ queryKey: [e.path] }),
      ),
    );

  const confirm = async () => {
    setRefusal(null);
    setConfirming(true);
    try {
      // no agreement gate here: the views this needs went through it already
      const res = await confirmNotice(n.id);
      message.success(res.data.alreadyConfirmed ? '该通知此前已确认' : `已确认 ${n.number}`);
      await refresh();
    } catch (e) {
      setRefusal(serverErrorText(e, '确认失败'));
      await refresh();
    } finally {
      setConfirming(false);
    }
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <NoticeHeader
        notice={n}
        overdue={n.overdue}
        tags={
          <>
            {n.status !== 'WITHDRAWN' && <RecipientStatusTag status={n.recipientStatus} />}
            {n.overdue && <OverdueTag />}
          </>
        }
        items={[
          ...(n.readAt ? [{ label: '阅读', children: `${formatDateTime(n.readAt)} ${n.readByName ?? ''}` }] : []),
          ...(n.confirmedAt
            ? [{ label: '确认', children: `${formatDateTime(n.confirmedAt)} ${n.confirmedByName ?? ''}` }]
            : []),
        ]}
      />
      {open && n.remindCount > 0 && (
        <Alert type="error" showIcon title={`制造方已于 ${formatDateTime(n.lastRemindedAt)} 催办，请尽快查看并确认`} />
      )}
      <Card size="small" title={`变更内容（${n.changes.length} 项）`}>
        <ChangesTable changes={n.changes} extra={viewedColumn} onView={(c, f) => setViewing(viewerFile(c, f))} />
      </Card>
      <Card size="small" title="确认" data-testid="notice-confirm">
        {n.recipientStatus === 'CONFIRMED' ? (
          <div>
            <Typography.Paragraph>
              <Tag color="green" icon={<CheckCircleOutlined />}>
                已确认
              </Tag>
              {formatDateTime(n.confirmedAt)} 由 {n.confirmedByName}（{n.confirmedByAccount}
              ）确认。确认记录了以下文件版本：
            </Typography.Paragraph>
            <ul style={{ margin: 0, paddingLeft: 20 }}>
              {n.confirmedFiles.map((f) => (
                <li key={f.fileId}>
                  {f.standardCode} {f.version}
                  <Typography.Text
                    type="secondary"
                    style={{ fontFamily: 'monospace', fontSize: 12, marginLeft: 8, wordBreak: 'break-all' }}
                  >
                    sha256 {f.sha256}
                  </Typography.Text>
                </li>
              ))}
            </ul>
          </div>
        ) : open ? (
          <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 8 }}>
            <Typography.Text>
              {unseen.length
                ? `请先点击「查看新版本」逐一查看，尚有 ${unseen.length} 个新版本未查看。全部查看后再确认。`
                : '全部新版本均已查看。确认表示贵公司已知悉并将执行本通知的变更。'}
            </Typography.Text>
            {unseen.length > 0 && (
              <Typography.Text type="secondary" data-testid="confirm-missing">
                尚未查看：{unseen.map((c) => `${c.standardCode} ${c.newFile.version}`).join('、')}
              </Typography.Text>
            )}
            {refusal && <Alert type="error" showIcon title={refusal} data-testid="confirm-refusal" />}
            <Popconfirm
              // nothing to ask before every new version has been viewed: the server would refuse
              disabled={unseen.length > 0}
              title="确认变更通知"
              description="确认贵公司已知悉本通知的全部变更？确认将记录所查看的各文件版本及其 sha256。"
              okText="确认"
              cancelText="取消"
              onConfirm={confirm}
            >
              <Button type="primary" icon={<CheckCircleOutlined />} loading={confirming} disabled={unseen.length > 0}>
                确认
              </Button>
            </Popconfirm>
          </div>
        ) : (
          <Typography.Text type="secondary">
            {n.status === 'WITHDRAWN' ? '该通知已撤回，无需确认。' : '该通知已关闭，不再接受确认。'}
          </Typography.Text>
        )}
      </Card>
      <FileViewer
        file={viewing}
        run={run}
        onClose={() => {
          setViewing(null);
          // an earlier refusal ("请先查看…") is answered by this view: the fresh state below says what is left
          setRefusal(null);
          // the view was logged: show it as viewed
          void refresh();
        }}
      />
      {gate}
    </div>
  );
}
