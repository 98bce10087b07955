/**
 * 图纸问题回复 (/esm/drawingManagement/documentIssueH), type 5's only page and landing: the
 * questions assigned to me, the pool (待分派) and all submitted ones, with filters; 领取 / 分派 /
 * 改派 (with a reason), the reply with attachments and, when the version asked about was
 * superseded, the change notice; the drawing opens in the existing viewer.
 */
import { useState } from 'react';
import { App, Button, Form, Input, Modal, Select, Space, Tabs, Typography } from 'antd';
import type { ListColumns } from '../../../components/listColumns.tsx';
import {
  ISSUE_SCOPES,
  ISSUE_SCOPE_LABELS,
  ISSUE_TRANSITIONS,
  canMove,
  documentIssuesApi,
  type IssueDetail,
  type IssueRow,
  type IssueScope,
} from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import { fetchPagedTableAhead } from '../../../components/PagedTable.tsx';
import { ahead } from '../../../api/ahead.ts';
import type { FetchAhead } from '../../pages.ts';
import { formatDateTime } from '../../../components/labels.tsx';
import { serverErrorText } from '../../../components/serverErrors.ts';
import { useFormSubmit } from '../../../components/useFormSubmit.ts';
import { FileViewer } from '../../files/index.ts';
import { useSession } from '../../session/index.ts';
import { useButton } from '../../../lib/permissions.ts';
import {
  allProblemTypesQuery,
  assignIssue,
  replyIssue,
  useAllProblemTypes,
  useHandlers,
  useIssue,
  useRefreshIssues,
} from '../api.ts';
import { issueFilterFields, overdueRow, typeAndStatusColumns } from '../labels.tsx';
import { viewerFileOf } from '../viewer.ts';
import { lazyDialog } from '../../../lib/lazyLoaded.ts';

// the issue's drawer (its timeline; the reply box with antd's Upload) only after a click on a row
const IssueThread = lazyDialog(
  () => import('../IssueThread.tsx'),
  (m) => m.IssueThread,
  (p) => p.open,
);
const ReplyBox = lazyDialog(
  () => import('../ReplyBox.tsx'),
  (m) => m.ReplyBox,
  () => true,
);

function AssignDialog({ issue, onClose, onDone }: { issue: IssueDetail; onClose: () => void; onDone: () => void }) {
  const handlers = useHandlers();
  const [form] = Form.useForm<{ userId?: number; reason?: string }>();
  const { busy, submit } = useFormSubmit(form, { failText: '分派失败' });
  // a question 处理中 always has an assignee, shown or not (回复人 may be hidden for this user)
  const reassign = issue.status === 'PROCESSING';
  const ok = async () => {
    if (!(await submit(async (v) => (await assignIssue(issue.id, v.userId!, v.reason?.trim() || undefined)).message)))
      return;
    onDone();
    onClose();
  };
  return (
    <Modal
      open
      title={reassign ? `改派 ${issue.number}` : `分派 ${issue.number}`}
      onCancel={onClose}
      onOk={ok}
      okText={reassign ? '改派' : '分派'}
      cancelText="取消"
      confirmLoading={busy}
    >
      <Form form={form} layout="vertical">
        <Form.Item name="userId" label="处理人" rules={[{ required: true, message: '请选择处理人' }]}>
          <Select
            showSearch
            optionFilterProp="label"
            aria-label="处理人"
            loading={handlers.isLoading}
            options={(handlers.data ?? [])
              .filter((h) => h.id !== issue.assigneeId)
              .map((h) => ({ value: h.id, label: `${h.name}（${h.account}）` }))}
          />
        </Form.Item>
        <Form.Item
          name="reason"
          label={reassign ? '改派原因' : '说明（可选）'}
          rules={reassign ? [{ required: true, whitespace: true, message: '改派请填写原因' }] : []}
        >
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The tab a visit opens on: the questions assigned to me. */
const FIRST_SCOPE: IssueScope = 'MINE';

/** Its first answers, asked at the sign-in when it is the landing page (api/ahead.ts). */
export const fetchAhead: FetchAhead = (queryClient) => {
  fetchPagedTableAhead(queryClient, documentIssuesApi.page, { scope: FIRST_SCOPE }, [
    documentIssuesApi.assign,
    documentIssuesApi.reply,
  ]);
  ahead(queryClient, allProblemTypesQuery);
};

export default function DocumentIssueHPage() {
  const { message } = App.useApp();
  const session = useSession();
  const me = session.data?.state === 'ok' ? session.data.user : undefined;
  const refresh = useRefreshIssues();
  const types = useAllProblemTypes();
  const [scope, setScope] = useState<IssueScope>(FIRST_SCOPE);
  const [openId, setOpenId] = useState<number | undefined>();
  const [assigning, setAssigning] = useState<IssueDetail | null>(null);
  const [viewing, setViewing] = useState<IssueDetail | null>(null);
  const detail = useIssue('haier', openId);

  const take = async (id: number) => {
    if (!me) return;
    try {
      message.success((await assignIssue(id, me.id)).message);
      await refresh();
    } catch (e) {
      message.error(serverErrorText(e, '领取失败'));
    }
  };

  const FIELDS = issueFilterFields('internal', types.data);

  const mayAssign = useButton(documentIssuesApi.assign);
  const mayReply = useButton(documentIssuesApi.reply);
  const columns: ListColumns<IssueRow> = [
    {
      title: '编号',
      dataIndex: 'number',
      sorter: true,
      width: 135,
      render: (n: string, r) => <a onClick={() => setOpenId(r.id)}>{n}</a>,
    },
    { title: '问题标题', dataIndex: 'title', role: 'identity', ellipsis: true },
    { title: '供应商', dataIndex: 'supplierName', width: 130, ellipsis: true },
    {
      title: '图纸',
      dataIndex: 'standardCode',
      width: 160,
      render: (code: string, r) => (
        <div style={{ lineHeight: 1.4 }}>
          {code} <Typography.Text type="secondary">版本 {r.version}</Typography.Text>
          <div style={{ fontSize: 12 }}>{r.productLineName}</div>
        </div>
      ),
    },
    ...typeAndStatusColumns,
    { title: '处理人', dataIndex: 'assigneeName', width: 75, render: (n: string | null) => n ?? '—' },
    { title: '答复期限', dataIndex: 'dueDate', sorter: true, width: 100, render: (d: string | null) => d ?? '—' },
    { title: '提交时间', dataIndex: 'submittedAt', sorter: true, width: 150, render: formatDateTime },
    {
      title: '操作',
      key: 'actions',
      width: 100,
      fixed: 'right',
      render: (_: unknown, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setOpenId(r.id)}>
            查看
          </Button>
          {r.status === 'PENDING' && mayAssign && (
            <Button type="link" size="small" onClick={() => take(r.id)}>
              领取
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const issue = detail.data;
  // the server says whether it is mine: the assignee's id is hidden when 回复人 is hidden for this user
  const mine = issue?.assignedToMe === true;
  return (
    <>
      <Tabs
        activeKey={scope}
        onChange={(k) => setScope(k as IssueScope)}
        items={ISSUE_SCOPES.map((s) => ({ key: s, label: ISSUE_SCOPE_LABELS[s] }))}
      />
      <ListPage
        key={scope}
        endpoint={documentIssuesApi.page}
        columns={columns}
        fields={FIELDS}
        rowKey="id"
        rowClassName={overdueRow}
        filterTestId="issue-filters"
        fixed={{ scope }}
        columnSettings={{ table: 'document-issues', defaultHidden: ['submittedAt'] }}
        emptyText={scope === 'MINE' ? '没有分派给您的问题' : scope === 'POOL' ? '没有待分派的问题' : '暂无问题'}
      />
      <IssueThread
        side="haier"
        issue={issue}
        loading={detail.isLoading}
        error={detail.error}
        onRetry={() => detail.refetch()}
        open={openId !== undefined}
        onClose={() => setOpenId(undefined)}
        onViewDrawing={setViewing}
      >
        {issue && mayAssign && canMove(ISSUE_TRANSITIONS, 'assign', issue.status) && (
          <Space style={{ marginTop: 8 }}>
            {!mine && issue.status === 'PENDING' && (
              <Button type="primary" onClick={() => take(issue.id)}>
                领取
              </Button>
            )}
            <Button onClick={() => setAssigning(issue)}>{issue.status === 'PROCESSING' ? '改派' : '分派'}</Button>
          </Space>
        )}
        {issue && mine && mayReply && canMove(ISSUE_TRANSITIONS, 'reply', issue.status) && (
          <ReplyBox
            side="haier"
            label="回复内容"
            button="回复"
            notices={issue.supersededBy}
            onSend={async (text, ids, noticeId) => {
              const res = await replyIssue(issue.id, text, ids, noticeId);
              await refresh();
              return res;
            }}
          />
        )}
      </IssueThread>
      {assigning && <AssignDialog issue={assigning} onClose={() => setAssigning(null)} onDone={() => void refresh()} />}
      <FileViewer file={viewing ? viewerFileOf(viewing) : null} onClose={() => setViewing(null)} />
    </>
  );
}
