/**
 * 图纸授权申请 (/esm/supplier/supplierDrawingEmpowerApply), the supplier's side of drawing authorization: its
 * grants expiring soon with 续期 (a new application, prefilled), its applications with their
 * state, and per application what may be done in that state — a draft is edited, submitted or
 * deleted; a submitted one withdrawn; a rejected or withdrawn one applied for again — and its
 * audit trail.
 */
import { useState } from 'react';
import { App, Button, Popconfirm, Space, Tag, Typography } from 'antd';
import type { ListColumns } from '../../../components/listColumns.tsx';
import { PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import {
  APPLICATION_STATUSES,
  APPLICATION_STATUS_LABELS,
  canMoveApplication,
  empowerApi,
  isEditable,
  type ApplicationRow,
  type ApplyMaterial,
  type ApplyOptions,
} from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import type { FilterField } from '../../../components/FilterForm.tsx';
import { formatDateTime } from '../../../components/labels.tsx';
import { serverErrorText } from '../../../components/serverErrors.ts';
import { useKeepsecretGate } from '../../standardlog/index.ts';
import { deleteApply, submitApply, useApplyOptions, useRefreshEmpower, withdrawApply } from '../api.ts';
import { ApplyForm, type ApplyDraft } from '../ApplyForm.tsx';
import { materialsColumn, periodColumn } from '../applicationColumns.tsx';
import { AuditDialog } from '../AuditDialog.tsx';
import { ApplicationStatusTag, Notice, dayPeriod, minute } from '../labels.tsx';

const FIELDS: FilterField[] = [
  {
    kind: 'select',
    name: 'status',
    label: '状态',
    width: 110,
    options: APPLICATION_STATUSES.map((s) => ({ value: s, label: APPLICATION_STATUS_LABELS[s] })),
  },
  { kind: 'text', name: 'materialCode', label: '物料编码', width: 130 },
  {
    kind: 'dateRange',
    from: 'dateFrom',
    to: 'dateTo',
    label: '申请日期',
    placeholder: ['申请开始日期', '申请结束日期'],
  },
];

/** 续期: from the day the grant ends (or today), for the longest period allowed. */
function renewal(m: ApplyMaterial, options: ApplyOptions): ApplyDraft {
  const ends = m.validUntil ? dayjs(m.validUntil).format('YYYY-MM-DD') : options.today;
  const from = ends > options.today ? ends : options.today;
  return {
    materialCodes: [m.code],
    validFrom: from,
    validUntil: dayjs(from)
      .add(options.maxPeriodDays - 1, 'day')
      .format('YYYY-MM-DD'),
    reason: `物料 ${m.code} 的图纸授权将于 ${minute(m.validUntil)} 到期，申请续期`,
    renewsGrantId: m.grantId,
  };
}

/** 再次申请: what was asked before, from today on. */
function again(a: ApplicationRow, options: ApplyOptions): ApplyDraft {
  const length = dayjs(a.validUntil).diff(dayjs(a.validFrom), 'day');
  const from = a.validFrom > options.today ? a.validFrom : options.today;
  return {
    materialCodes: a.materials.map((m) => m.code),
    validFrom: from,
    validUntil: dayjs(from)
      .add(Math.min(length, options.maxPeriodDays - 1), 'day')
      .format('YYYY-MM-DD'),
    reason: a.reason,
  };
}

function Expiring({ options, onRenew }: { options: ApplyOptions; onRenew: (m: ApplyMaterial) => void }) {
  const soon = options.materials.filter((m) => m.expiringSoon);
  if (soon.length === 0) return null;
  return (
    <Notice kind="warning" testId="expiring-grants">
      <Typography.Text strong>以下物料的图纸授权将在 {options.expiringDays} 天内到期，请及时续期：</Typography.Text>
      {soon.map((m) => (
        <div key={m.code} style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, marginTop: 6 }}>
          <span>
            {m.code} {m.name}
          </span>
          <Typography.Text type="secondary">有效期至 {minute(m.validUntil)}</Typography.Text>
          {m.pendingApplicationId ? (
            <Tag color="processing">续期申请 {m.pendingApplicationId} 审批中</Tag>
          ) : (
            // solid: a ghost button's blue text on the warning tint fell under 4.5:1 in the dark theme
            <Button size="small" type="primary" onClick={() => onRenew(m)}>
              即将到期 · 续期
            </Button>
          )}
        </div>
      ))}
    </Notice>
  );
}

export default function SupplierDrawingEmpowerApplyPage() {
  const { message } = App.useApp();
  const options = useApplyOptions();
  const refresh = useRefreshEmpower();
  const { run, gate } = useKeepsecretGate();
  const [editing, setEditing] = useState<ApplyDraft | null>(null);
  const [auditOf, setAuditOf] = useState<number | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const act = async (id: number, what: () => Promise<unknown>, done: string) => {
    setBusy(id);
    try {
      if ((await what()) === undefined) return; // the agreement was declined
      message.success(done);
      await refresh();
    } catch (e) {
      message.error(serverErrorText(e, '操作失败'));
    } finally {
      setBusy(null);
    }
  };

  // on a phone the number, the materials (and the supplier) are the row's identity (listColumns.tsx)
  const columns: ListColumns<ApplicationRow> = [
    { title: '申请编号', dataIndex: 'id', width: 80 },
    {
      ...materialsColumn('物料', 220, (m) => (
        <>
          <Typography.Text type="secondary">{m.name}</Typography.Text>
          {m.approved === true && (
            <Tag color="green" style={{ marginLeft: 4 }}>
              已批准
            </Tag>
          )}
          {m.approved === false && <Tag style={{ marginLeft: 4 }}>未批准</Tag>}
        </>
      )),
      role: 'identity',
    },
    periodColumn(false),
    {
      title: '状态',
      dataIndex: 'status',
      sorter: true,
      width: 90,
      render: (s: ApplicationRow['status']) => <ApplicationStatusTag status={s} />,
    },
    {
      title: '审批结果',
      key: 'decision',
      width: 220,
      render: (_: unknown, a) =>
        a.decidedAt ? (
          <div style={{ lineHeight: 1.5 }}>
            {a.status === 'APPROVED' && <div>批准期限 {dayPeriod(a.approvedFrom, a.approvedUntil)}</div>}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {a.deciderName} {minute(a.decidedAt)}
            </Typography.Text>
            {a.decisionComment && (
              <Typography.Paragraph
                type={a.status === 'REJECTED' ? 'danger' : undefined}
                ellipsis={{ rows: 2, tooltip: a.decisionComment }}
                style={{ margin: 0 }}
              >
                {a.decisionComment}
              </Typography.Paragraph>
            )}
          </div>
        ) : (
          '—'
        ),
    },
    {
      title: '提交时间',
      dataIndex: 'submittedAt',
      sorter: true,
      width: 110,
      render: (at: string | null) =>
        at ? <span style={{ whiteSpace: 'pre-line' }}>{formatDateTime(at).replace(' ', '\n')}</span> : '—',
    },
    {
      title: '操作',
      key: 'actions',
      width: 190,
      render: (_: unknown, a) => (
        <Space size={0} wrap>
          {isEditable(a.status) && (
            <>
              <Button
                type="link"
                size="small"
                onClick={() =>
                  setEditing({
                    id: a.id,
                    materialCodes: a.materials.map((m) => m.code),
                    validFrom: a.validFrom,
                    validUntil: a.validUntil,
                    reason: a.reason,
                    renewsGrantId: a.renewsGrantId,
                  })
                }
              >
                编辑
              </Button>
              <Popconfirm
                title="提交申请"
                description="提交后将进入审批，不能再修改。确认提交？"
                okText="提交"
                cancelText="取消"
                onConfirm={() => act(a.id, () => run(() => submitApply(a.id)), `申请 ${a.id} 已提交，等待审批`)}
              >
                <Button type="link" size="small" loading={busy === a.id}>
                  提交
                </Button>
              </Popconfirm>
              <Popconfirm
                title="删除草稿"
                description="删除后不能恢复。确认删除？"
                okText="删除"
                okButtonProps={{ danger: true }}
                cancelText="取消"
                onConfirm={() => act(a.id, () => deleteApply(a.id), `已删除草稿 ${a.id}`)}
              >
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>
            </>
          )}
          {canMoveApplication(a.status, 'WITHDRAW') && (
            <Popconfirm
              title="撤回申请"
              description="撤回后该申请不再审批，如需授权须重新申请。确认撤回？"
              okText="撤回"
              okButtonProps={{ danger: true }}
              cancelText="取消"
              onConfirm={() => act(a.id, () => withdrawApply(a.id), `已撤回申请 ${a.id}`)}
            >
              <Button type="link" size="small" danger loading={busy === a.id}>
                撤回
              </Button>
            </Popconfirm>
          )}
          {(a.status === 'REJECTED' || a.status === 'WITHDRAWN') && options.data && (
            <Button type="link" size="small" onClick={() => setEditing(again(a, options.data))}>
              再次申请
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
      {options.data && <Expiring options={options.data} onRenew={(m) => setEditing(renewal(m, options.data))} />}
      <ListPage
        endpoint={empowerApi.supplierApplications}
        columns={columns}
        fields={FIELDS}
        rowKey="id"
        filterTestId="apply-filters"
        emptyText="没有授权申请（需要查看某物料的图纸时，点击「新建申请」）"
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={!options.data}
            onClick={() => setEditing({ materialCodes: [] })}
            style={{ marginBottom: 16 }}
          >
            新建申请
          </Button>
        }
      />
      <ApplyForm draft={editing} options={options.data} run={run} onClose={() => setEditing(null)} onSaved={refresh} />
      <AuditDialog id={auditOf} side="supplier" onClose={() => setAuditOf(null)} />
      {gate}
    </>
  );
}
