/**
 * 供应商授权申请审批 (/esm/drawingAuthorization/drawingEmpowerApprove), the approver's landing
 * page (type 6): applications awaiting a decision first (oldest first), decided one at a time —
 * all or some materials, the period as asked or shorter, or rejected with a reason — or several
 * at once as asked. Drawing admins (3/7/8/9) read the same list without the decision buttons:
 * the server refuses them a decision anyway.
 */
import { useState } from 'react';
import { App, Button, Form, Input, Modal, Space, Tag, Typography } from 'antd';
import type { ListColumns } from '../../../components/listColumns.tsx';
import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import {
  APPLICATION_STATUSES,
  APPLICATION_STATUS_LABELS,
  EMPOWER_APPROVER_TYPES,
  UI,
  canMoveApplication,
  empowerApi,
  type ApplicationRow,
} from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import { fetchPagedTableAhead } from '../../../components/PagedTable.tsx';
import type { FetchAhead } from '../../pages.ts';
import type { FilterField } from '../../../components/FilterForm.tsx';
import { formatDateTime } from '../../../components/labels.tsx';
import { serverErrorText } from '../../../components/serverErrors.ts';
import { validValues } from '../../../components/zodRule.ts';
import { useSession } from '../../session/index.ts';
import { decideApplications, useRefreshEmpower } from '../api.ts';
import { materialsColumn, periodColumn } from '../applicationColumns.tsx';
import { useButton } from '../../../lib/permissions.ts';
import { lazyDialog } from '../../../lib/lazyLoaded.ts';
import { ApplicationStatusTag, CodeName, GrantStateTag, Notice } from '../labels.tsx';

// the decision (with its date pickers) and the audit trail only after a click on a row
const DecideModal = lazyDialog(
  () => import('../DecideModal.tsx'),
  (m) => m.DecideModal,
  (p) => p.app !== null,
);
const AuditDialog = lazyDialog(
  () => import('../AuditDialog.tsx'),
  (m) => m.AuditDialog,
  (p) => p.id !== null,
);

const FIELDS: FilterField[] = [
  {
    kind: 'select',
    name: 'status',
    label: '状态',
    width: 110,
    options: APPLICATION_STATUSES.filter((s) => s !== 'DRAFT').map((s) => ({
      value: s,
      label: APPLICATION_STATUS_LABELS[s],
    })),
  },
  { kind: 'text', name: 'supplierCode', label: '供应商编码', width: 120 },
  { kind: 'text', name: 'materialCode', label: '物料编码', width: 120 },
  {
    kind: 'dateRange',
    from: 'dateFrom',
    to: 'dateTo',
    label: '申请日期',
    placeholder: ['申请开始日期', '申请结束日期'],
  },
];

/**
 * An approver whose 审批 button the permissions leave on; `undefined` while the page's buttons are
 * on their way (neither the approver's buttons nor the onlooker's notice is shown yet).
 */
function useIsApprover(): boolean | undefined {
  const session = useSession();
  const mayApprove = useButton(empowerApi.approve);
  const type = session.data?.state === 'ok' ? session.data.user.type : undefined;
  if (mayApprove === undefined || type === undefined) return undefined;
  return mayApprove && (EMPOWER_APPROVER_TYPES as readonly number[]).includes(type);
}

/** The height of the 批量批准 / 批量驳回 row (a button and its margin below). */
const BATCH_ROW_HEIGHT = 48;

/** Its first answers, asked at the sign-in when it is the landing page (api/ahead.ts). */
export const fetchAhead: FetchAhead = (queryClient) =>
  fetchPagedTableAhead(queryClient, empowerApi.applications, {}, [empowerApi.approve]);

export default function DrawingEmpowerApprovePage() {
  const { message, modal } = App.useApp();
  const approver = useIsApprover();
  const refresh = useRefreshEmpower();
  const [deciding, setDeciding] = useState<ApplicationRow | null>(null);
  const [auditOf, setAuditOf] = useState<number | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [rejecting, setRejecting] = useState(false);
  const [rejectForm] = Form.useForm<{ comment: string }>();

  const decideMany = async (decision: 'APPROVE' | 'REJECT', comment?: string) => {
    try {
      const res = await decideApplications({ ids: selected, decision, comment });
      message.success(res.message);
      setSelected([]);
      setRejecting(false);
    } catch (e) {
      message.error(serverErrorText(e, '审批失败'));
    } finally {
      await refresh();
    }
  };

  const approveSelected = () =>
    modal.confirm({
      title: `批准选中的 ${selected.length} 个申请`,
      content: '按各申请的全部物料和申请期限批准，并立即生成授权。需要部分批准或缩短期限时，请逐个审批。',
      okText: '批准',
      cancelText: '取消',
      width: UI.confirmWidth,
      onOk: () => decideMany('APPROVE'),
    });

  // on a phone the number, the materials (and the supplier) are the row's identity (listColumns.tsx)
  const columns: ListColumns<ApplicationRow> = [
    {
      title: '编号',
      dataIndex: 'id',
      width: 70,
      // on a narrow screen the 操作 column is off to the right: the number opens the decision too
      render: (id: number, a) =>
        approver && canMoveApplication(a.status, 'APPROVE') ? (
          <Button
            type="link"
            size="small"
            style={{ padding: 0 }}
            onClick={() => setDeciding(a)}
            aria-label={`审批申请 ${id}`}
          >
            {id}
          </Button>
        ) : (
          id
        ),
    },
    {
      title: '供应商',
      dataIndex: 'supplierCode',
      sorter: true,
      role: 'identity',
      width: 150,
      render: (code: string, a) => <CodeName code={code} name={a.supplierName} width={140} />,
    },
    {
      ...materialsColumn('物料（当前授权）', 200, (m) => (
        <>
          <GrantStateTag state={m.grantState} />
          {m.approved === false && <Tag>未批准</Tag>}
        </>
      )),
      role: 'identity',
    },
    periodColumn(true),
    {
      title: '申请理由',
      dataIndex: 'reason',
      width: 130,
      render: (r: string) => (
        <Typography.Paragraph ellipsis={{ rows: 2, tooltip: r }} style={{ margin: 0 }}>
          {r}
        </Typography.Paragraph>
      ),
    },
    {
      title: '申请人 / 提交时间',
      dataIndex: 'submittedAt',
      sorter: true,
      // the title and its sort icon on one line at 1366
      width: 150,
      render: (at: string | null, a) => (
        <div style={{ lineHeight: 1.4 }}>
          <div style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }} title={a.applicantName}>
            {a.applicantName}
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatDateTime(at).slice(0, 16)}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      sorter: true,
      width: 100,
      render: (s: ApplicationRow['status'], a) => (
        <div style={{ lineHeight: 1.4 }}>
          <ApplicationStatusTag status={s} />
          {a.deciderName && (
            <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
              {a.deciderName}
            </Typography.Text>
          )}
        </div>
      ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 110,
      render: (_: unknown, a) => (
        <Space size={0} wrap>
          {approver && canMoveApplication(a.status, 'APPROVE') && (
            <Button type="link" size="small" onClick={() => setDeciding(a)}>
              审批
            </Button>
          )}
          <Button type="link" size="small" onClick={() => setAuditOf(a.id)}>
            记录
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      {approver === false && <Notice>授权申请由授权审批人审批；此处仅供查看。</Notice>}
      <ListPage
        endpoint={empowerApi.applications}
        columns={columns}
        fields={FIELDS}
        rowKey="id"
        filterTestId="approve-filters"
        emptyText="没有授权申请"
        rowSelection={
          approver
            ? {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                onChange: (keys) => setSelected(keys as number[]),
                getCheckboxProps: (a) => ({ disabled: a.status !== 'SUBMITTED', 'aria-label': `选择申请 ${a.id}` }),
              }
            : undefined
        }
        extra={
          // the approver's landing page: the batch buttons' row is held while the buttons are asked
          // for, so the table does not move down when they appear
          approver === undefined ? (
            <div aria-hidden style={{ height: BATCH_ROW_HEIGHT }} />
          ) : (
            approver && (
              <Space wrap style={{ marginBottom: 16 }}>
                <Button
                  type="primary"
                  icon={<CheckOutlined />}
                  disabled={selected.length === 0}
                  onClick={approveSelected}
                >
                  批量批准{selected.length ? `（${selected.length}）` : ''}
                </Button>
                <Button
                  danger
                  icon={<CloseOutlined />}
                  disabled={selected.length === 0}
                  onClick={() => setRejecting(true)}
                >
                  批量驳回{selected.length ? `（${selected.length}）` : ''}
                </Button>
              </Space>
            )
          )
        }
      />
      <DecideModal app={deciding} onClose={() => setDeciding(null)} onDecided={refresh} />
      <AuditDialog id={auditOf} side="haier" onClose={() => setAuditOf(null)} />
      <Modal
        open={rejecting}
        title={`驳回选中的 ${selected.length} 个申请`}
        width={UI.modalWidth}
        okText="驳回"
        okButtonProps={{ danger: true }}
        cancelText="取消"
        onCancel={() => setRejecting(false)}
        destroyOnHidden
        onOk={async () => {
          const v = await validValues(rejectForm);
          if (v) await decideMany('REJECT', v.comment.trim());
        }}
      >
        <Form form={rejectForm} layout="vertical" preserve={false} name="empower-reject-many">
          <Form.Item
            name="comment"
            label="驳回原因"
            rules={[
              { required: true, whitespace: true, message: '请填写驳回原因' },
              { max: 500, message: '驳回原因不能超过 500 个字符' },
            ]}
          >
            <Input.TextArea rows={3} maxLength={500} showCount placeholder="供应商将看到此原因" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
