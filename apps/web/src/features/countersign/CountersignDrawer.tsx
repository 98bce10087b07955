/**
 * One countersign list in a drawer, on either side: its content, the file versions concerned (open
 * in the file viewer, each with its sha256), the signature timeline of every round (earlier rounds
 * stay readable), and exactly the actions the server says the caller may take now (`actions`).
 */
import { useState, type ReactNode } from 'react';
import { App, Button, Card, Descriptions, Drawer, Empty, Space, Spin, Table, Tag, Timeline, Typography } from 'antd';
import { useMd } from '../../components/useScreen.ts';
import { DownloadOutlined, EditOutlined, EyeOutlined, SendOutlined, StopOutlined } from '@ant-design/icons';
import {
  COUNTERSIGN_EVENT_LABELS,
  countersignApi,
  FILE_TYPES,
  UI,
  ZCountersignCancelSchema,
  type CountersignDetail,
  type CountersignFile,
  type CountersignRound,
} from '@esm/contracts';
import { actorText, formatDateTime } from '../../components/labels.tsx';
import { ErrorResult } from '../../components/ErrorResult.tsx';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { FileViewer, type Run } from '../files/index.ts';
import { DueDate, OverdueTag } from '../notices/index.ts';
import {
  cancelCountersign,
  downloadSheet,
  issueCountersign,
  useCountersign,
  useRefreshCountersign,
  type Side,
} from './api.ts';
import { CountersignForm } from './CountersignForm.tsx';
import { CountersignStatusTag, DecisionTag } from './labels.tsx';
import { SignDialog } from './SignDialog.tsx';
import { useButton } from '../../lib/permissions.ts';
import { ClearOfToasts } from '../../components/ClearOfToasts.tsx';
import { useBusyAction } from '../../components/useBusyAction.ts';

const short = (sha: string) => `${sha.slice(0, 12)}…${sha.slice(-6)}`;

function FilesTable({ files, onOpen }: { files: CountersignFile[]; onOpen: (f: CountersignFile) => void }) {
  return (
    <Table<CountersignFile>
      size="small"
      rowKey="fileId"
      pagination={false}
      dataSource={files}
      scroll={{ x: 560 }}
      columns={[
        { title: '标准编号', dataIndex: 'standardCode', width: 150 },
        { title: '名称', dataIndex: 'name', ellipsis: true },
        { title: '版本', dataIndex: 'version', width: 64 },
        {
          title: 'SHA-256',
          dataIndex: 'sha256',
          width: 170,
          render: (v: string) => (
            <Typography.Text code copyable={{ text: v }} title={v}>
              {short(v)}
            </Typography.Text>
          ),
        },
        {
          title: '操作',
          key: 'open',
          width: 72,
          render: (_: unknown, f) =>
            FILE_TYPES[f.fileType].viewable ? (
              <Button size="small" type="link" icon={<EyeOutlined />} onClick={() => onOpen(f)}>
                查看
              </Button>
            ) : (
              <Typography.Text type="secondary">仅下载</Typography.Text>
            ),
        },
      ]}
    />
  );
}

/** One round: issued, then each signature; while it is being signed, the steps still ahead. */
function RoundTimeline({ list, round }: { list: CountersignDetail; round: CountersignRound }) {
  const items: { color?: string; children: ReactNode }[] = [
    {
      color: 'blue',
      children: (
        <span>
          {formatDateTime(round.issuedAt)} {round.issuedByName ?? '已隐藏'} 下发
        </span>
      ),
    },
  ];
  for (const s of round.signatures) {
    items.push({
      color: s.decision === 'RETURN' ? 'red' : s.decision === 'CONDITIONAL' ? 'gold' : 'green',
      children: (
        <div data-testid="signature">
          <Space size={4} wrap>
            <strong>{s.step === 0 ? '供应商' : `我方 ${s.step}`}</strong>
            <span>{s.userName ?? '已隐藏'}</span>
            <Typography.Text type="secondary">{s.supplierName ?? s.department}</Typography.Text>
            <DecisionTag decision={s.decision} />
          </Space>
          {s.comment && <div>{s.comment}</div>}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {[
              formatDateTime(s.createdAt),
              actorText(undefined, undefined, s.ip),
              `内容 SHA-256 ${short(s.contentSha256)}`,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Typography.Text>
        </div>
      ),
    });
  }
  if (round.outcome === null && list.round === round.round) {
    const waiting = [
      { step: 0, name: list.supplierName },
      ...round.signers.map((s) => ({ step: s.step, name: s.name })),
    ].filter((w) => w.step >= list.step);
    for (const w of waiting)
      items.push({
        color: 'gray',
        children: (
          <Typography.Text type="secondary">
            {w.step === list.step ? '待会签：' : '待：'}
            {w.name}
          </Typography.Text>
        ),
      });
  }
  const outcome =
    round.outcome === 'COMPLETED' ? (
      <Tag color="green">已完成</Tag>
    ) : round.outcome === 'RETURNED' ? (
      <Tag color="magenta">已退回</Tag>
    ) : (
      <Tag color="blue">会签中</Tag>
    );
  return (
    <Card
      size="small"
      style={{ marginBottom: 12 }}
      title={
        <Space>
          第 {round.round} 轮{outcome}
        </Space>
      }
      data-testid={`round-${round.round}`}
    >
      {list.round !== round.round && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, whiteSpace: 'pre-wrap' }}>
          本轮事项：{round.items}
          {'\n'}文件：{round.files.map((f) => `${f.standardCode} ${f.version}`).join('、')}
        </Typography.Paragraph>
      )}
      <Timeline items={items} />
    </Card>
  );
}

function CancelDialog({ list, onClose, onDone }: { list: CountersignDetail; onClose: () => void; onDone: () => void }) {
  return (
    <ReasonDialog
      open
      name="countersign-cancel"
      title={`取消会签单 ${list.number}？`}
      description="取消后不能再下发；已有的签署记录保留。"
      reasonLabel="取消原因"
      placeholder="请填写取消原因"
      okText="确认取消"
      reasonRule={ZCountersignCancelSchema.shape.reason}
      onSubmit={async ({ reason }) => {
        await cancelCountersign(list.id, reason);
        return `已取消 ${list.number}`;
      }}
      failText="取消失败"
      onClose={onClose}
      onDone={onDone}
    />
  );
}

export function CountersignDrawer({
  side,
  id,
  onClose,
  run,
}: {
  side: Side;
  id: number | null;
  onClose: () => void;
  run?: Run;
}) {
  const { modal } = App.useApp();
  const wide = useMd();
  const q = useCountersign(side, id ?? undefined);
  const refresh = useRefreshCountersign();
  const [viewing, setViewing] = useState<CountersignFile | null>(null);
  const [dialog, setDialog] = useState<'edit' | 'sign' | 'cancel' | null>(null);
  const { busy, run: act } = useBusyAction(refresh);
  const list = q.data;

  const done = () => {
    setDialog(null);
    void refresh();
  };
  const issue = (l: CountersignDetail) =>
    modal.confirm({
      title: `下发 ${l.number}？`,
      width: UI.confirmWidth,
      okText: '下发',
      cancelText: '取消',
      content: `将开始第 ${l.round + 1} 轮会签：先由 ${l.supplierName} 会签，再由 ${l.signers.map((s) => s.name).join(' → ')} 依次会签。`,
      onOk: () => act('issue', async () => (await issueCountersign(l.id)).message, '下发失败'),
    });

  const mayIssue = useButton(countersignApi.issue);
  const mayCancel = useButton(countersignApi.cancel);
  const buttons = (l: CountersignDetail) => {
    const out: ReactNode[] = [];
    if (l.actions.includes('sign'))
      out.push(
        <Button key="sign" type="primary" onClick={() => setDialog('sign')}>
          会签
        </Button>,
      );
    if (l.actions.includes('edit'))
      out.push(
        <Button key="edit" icon={<EditOutlined />} onClick={() => setDialog('edit')}>
          编辑
        </Button>,
      );
    if (l.actions.includes('issue') && mayIssue)
      out.push(
        <Button key="issue" type="primary" icon={<SendOutlined />} loading={busy === 'issue'} onClick={() => issue(l)}>
          {l.round > 0 ? '重新下发' : '下发'}
        </Button>,
      );
    if (l.actions.includes('cancel') && mayCancel)
      out.push(
        <Button key="cancel" danger icon={<StopOutlined />} onClick={() => setDialog('cancel')}>
          取消
        </Button>,
      );
    if (l.actions.includes('download'))
      out.push(
        <Button
          key="download"
          type="primary"
          icon={<DownloadOutlined />}
          loading={busy === 'download'}
          onClick={() => act('download', async () => `已下载：${await downloadSheet(side, l.id)}`, '下载失败')}
        >
          下载签核单
        </Button>,
      );
    return out;
  };

  let body: ReactNode;
  if (q.isPending) body = <Spin style={{ display: 'block', margin: '48px auto' }} />;
  else if (q.isError || !list)
    // a 404 is the list gone or not the caller's: one message and the way back to the list
    body = (
      <ErrorResult
        error={q.error}
        notFound="会签单不存在或无权查看"
        back={{ onBack: onClose }}
        onRetry={() => q.refetch()}
      />
    );
  else
    body = (
      <div data-testid="countersign-detail">
        <Space wrap style={{ marginBottom: 12 }}>
          <CountersignStatusTag status={list.status} />
          {list.overdue && <OverdueTag />}
          {list.waitingFor && <Typography.Text>当前待 {list.waitingFor} 会签</Typography.Text>}
        </Space>
        <Descriptions size="small" column={wide ? 2 : 1} bordered style={{ marginBottom: 16 }}>
          <Descriptions.Item label="供应商">
            {list.supplierCode} {list.supplierName}
          </Descriptions.Item>
          <Descriptions.Item label="截止日期">
            <DueDate date={list.dueDate} overdue={list.overdue} hint="已过会签截止日期" />
          </Descriptions.Item>
          <Descriptions.Item label="关联变更通知">{list.noticeNumber ?? '无'}</Descriptions.Item>
          {/* governed (COUNTERSIGN_COLUMNS): absent when hidden for the user */}
          {list.createdByName !== undefined && (
            <Descriptions.Item label="发起人">{list.createdByName}</Descriptions.Item>
          )}
          <Descriptions.Item label="我方会签人">{list.signers.map((s) => s.name).join(' → ')}</Descriptions.Item>
          <Descriptions.Item label="轮次">{list.round ? `第 ${list.round} 轮` : '未下发'}</Descriptions.Item>
          {list.cancelReason && <Descriptions.Item label="取消原因">{list.cancelReason}</Descriptions.Item>}
        </Descriptions>
        <Typography.Title level={5}>会签事项</Typography.Title>
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{list.items}</Typography.Paragraph>
        <Typography.Title level={5}>涉及的文件版本</Typography.Title>
        <FilesTable files={list.files} onOpen={setViewing} />
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          会签记录
        </Typography.Title>
        {list.rounds.length === 0 ? (
          <Empty description="尚未下发" />
        ) : (
          [...list.rounds].reverse().map((r) => <RoundTimeline key={r.round} list={list} round={r} />)
        )}
        {list.events.length > 0 && (
          <>
            <Typography.Title level={5}>操作记录</Typography.Title>
            <Timeline
              items={list.events.map((e) => ({
                children: (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {[
                      formatDateTime(e.createdAt),
                      actorText(e.userName, e.userAccount, e.ip),
                      COUNTERSIGN_EVENT_LABELS[e.action],
                    ]
                      .filter(Boolean)
                      .join(' ')}
                    {e.detail ? `：${e.detail}` : ''}
                  </Typography.Text>
                ),
              }))}
            />
          </>
        )}
      </div>
    );

  return (
    <>
      <Drawer
        open={id !== null}
        onClose={onClose}
        size={wide ? 780 : '100%'}
        title={<ClearOfToasts>{list ? `${list.number} ${list.title}` : '会签单'}</ClearOfToasts>}
        extra={list && <Space wrap>{buttons(list)}</Space>}
        destroyOnHidden
      >
        {body}
      </Drawer>
      {list && dialog === 'sign' && (
        <SignDialog side={side} list={list} onClose={() => setDialog(null)} onDone={done} />
      )}
      {list && dialog === 'edit' && <CountersignForm list={list} onClose={() => setDialog(null)} onSaved={done} />}
      {list && dialog === 'cancel' && <CancelDialog list={list} onClose={() => setDialog(null)} onDone={done} />}
      <FileViewer
        file={
          viewing && {
            id: viewing.fileId,
            standardCode: viewing.standardCode,
            name: viewing.name,
            version: viewing.version,
            fileName: viewing.fileName,
            fileType: viewing.fileType,
          }
        }
        run={run}
        onClose={() => setViewing(null)}
      />
    </>
  );
}
