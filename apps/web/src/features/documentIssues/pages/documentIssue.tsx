/**
 * 图纸问题 (/esm/supplier/documentIssue), the supplier's side of questions on drawings: its questions (filters
 * by state, material, type, date; overdue marked), 提问, drafts edited, submitted or deleted (one
 * or many, after a confirmation), the thread with the answers, 关闭 and 追问 (reopen with a
 * follow-up), and the drawing asked about in the viewer.
 */
import { useState } from 'react';
import { App, Button, Popconfirm, Space, Typography } from 'antd';
import type { ListColumns } from '../../../components/listColumns.tsx';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { canMove, documentIssuesApi, ISSUE_TRANSITIONS, type IssueDetail, type IssueRow } from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import { formatDateTime } from '../../../components/labels.tsx';
import { serverErrorText } from '../../../components/serverErrors.ts';
import { FileViewer } from '../../files/index.ts';
import { useKeepsecretGate } from '../../standardlog/index.ts';
import {
  closeIssue,
  deleteIssues,
  fetchIssue,
  reopenIssue,
  submitIssue,
  useIssue,
  useProblemTypeOptions,
  useRefreshIssues,
} from '../api.ts';
import { IssueForm } from '../IssueForm.tsx';
import { IssueThread } from '../IssueThread.tsx';
import { issueFilterFields, overdueRow, typeAndStatusColumns } from '../labels.tsx';
import { ReplyBox } from '../ReplyBox.tsx';
import { viewerFileOf } from '../viewer.ts';

export default function DocumentIssuePage() {
  const { message, modal } = App.useApp();
  const refresh = useRefreshIssues();
  const types = useProblemTypeOptions();
  const { run, gate } = useKeepsecretGate();
  const [openId, setOpenId] = useState<number | undefined>();
  const [form, setForm] = useState<{ editing: IssueDetail | null } | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [viewing, setViewing] = useState<IssueDetail | null>(null);
  const detail = useIssue('supplier', openId);

  const act = async (what: () => Promise<{ message: string }>) => {
    try {
      message.success((await what()).message);
      await refresh();
    } catch (e) {
      message.error(serverErrorText(e, '操作失败'));
    }
  };

  const removeMany = (ids: number[]) =>
    modal.confirm({
      title: `删除 ${ids.length} 个草稿？`,
      content: '删除后不能恢复。',
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        await act(() => deleteIssues(ids));
        setSelected([]);
      },
    });

  const FIELDS = issueFilterFields('supplier', types.data);

  const columns: ListColumns<IssueRow> = [
    {
      title: '编号',
      dataIndex: 'number',
      sorter: true,
      width: 135,
      render: (n: string, r) => <a onClick={() => setOpenId(r.id)}>{n}</a>,
    },
    { title: '问题标题', dataIndex: 'title', role: 'identity', ellipsis: true },
    {
      title: '图纸',
      dataIndex: 'standardCode',
      width: 175,
      render: (code: string, r) => (
        <div style={{ lineHeight: 1.4 }}>
          {code} <Typography.Text type="secondary">版本 {r.version}</Typography.Text>
          <div style={{ fontSize: 12 }}>
            {r.materialCode} {r.materialName}
          </div>
        </div>
      ),
    },
    ...typeAndStatusColumns,
    {
      title: '处理人',
      dataIndex: 'assigneeName',
      width: 75,
      render: (n: string | null, r) => n ?? (r.status === 'DRAFT' ? '—' : '待分派'),
    },
    { title: '答复期限', dataIndex: 'dueDate', sorter: true, width: 105, render: (d: string | null) => d ?? '—' },
    { title: '创建时间', dataIndex: 'createdAt', sorter: true, width: 160, render: formatDateTime },
    {
      title: '操作',
      key: 'actions',
      width: 150,
      fixed: 'right',
      render: (_: unknown, r) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setOpenId(r.id)}>
            查看
          </Button>
          {r.status === 'DRAFT' && (
            <>
              <Button
                type="link"
                size="small"
                onClick={() =>
                  fetchIssue('supplier', r.id).then(
                    (editing) => setForm({ editing }),
                    () => undefined,
                  )
                }
              >
                编辑
              </Button>
              <Popconfirm
                title="删除该草稿？"
                okText="删除"
                cancelText="取消"
                okButtonProps={{ danger: true }}
                onConfirm={() => act(() => deleteIssues([r.id]))}
              >
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>
            </>
          )}
        </Space>
      ),
    },
  ];

  const issue = detail.data;
  return (
    <>
      <ListPage
        endpoint={documentIssuesApi.supplierPage}
        columns={columns}
        fields={FIELDS}
        rowKey="id"
        rowClassName={overdueRow}
        filterTestId="issue-filters"
        columnSettings={{ table: 'supplier-document-issues', defaultHidden: ['createdAt'] }}
        emptyText="还没有问题。对图纸有疑问时，点击「提问」。"
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys as number[]),
          getCheckboxProps: (r) => ({ disabled: r.status !== 'DRAFT' }),
        }}
        extra={
          <Space style={{ marginBottom: 16 }}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ editing: null })}>
              提问
            </Button>
            <Button
              icon={<DeleteOutlined />}
              danger
              disabled={selected.length === 0}
              onClick={() => removeMany(selected)}
            >
              批量删除{selected.length ? `（${selected.length}）` : ''}
            </Button>
          </Space>
        }
      />
      <IssueThread
        side="supplier"
        issue={issue}
        loading={detail.isLoading}
        error={detail.error}
        onRetry={() => detail.refetch()}
        open={openId !== undefined}
        onClose={() => setOpenId(undefined)}
        onViewDrawing={setViewing}
      >
        {issue?.status === 'DRAFT' && (
          <Space style={{ marginTop: 8 }}>
            <Button onClick={() => setForm({ editing: issue })}>编辑</Button>
            <Button type="primary" onClick={() => act(() => submitIssue(issue.id))}>
              提交
            </Button>
          </Space>
        )}
        {issue && canMove(ISSUE_TRANSITIONS, 'close', issue.status) && (
          <Popconfirm
            title="问题已解决，关闭该问题？"
            okText="关闭问题"
            cancelText="取消"
            onConfirm={() => act(() => closeIssue(issue.id))}
          >
            <Button style={{ marginTop: 8 }}>关闭问题</Button>
          </Popconfirm>
        )}
        {issue && canMove(ISSUE_TRANSITIONS, 'reopen', issue.status) && (
          <ReplyBox
            side="supplier"
            label="追问内容"
            button="追问并重新打开"
            onSend={async (text, ids) => {
              const res = await reopenIssue(issue.id, text, ids);
              await refresh();
              return res;
            }}
          />
        )}
      </IssueThread>
      <IssueForm
        open={form !== null}
        editing={form?.editing ?? null}
        onClose={() => setForm(null)}
        onSaved={() => void refresh()}
      />
      <FileViewer file={viewing ? viewerFileOf(viewing) : null} onClose={() => setViewing(null)} run={run} />
      {gate}
    </>
  );
}
