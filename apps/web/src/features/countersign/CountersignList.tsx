/**
 * The countersign list of either side (a ListPage): state tags, overdue highlighted,
 * whose turn it is; a row opens the detail drawer. `?id=` opens one list directly (a link to it).
 * Internal users filter by supplier, state, due date, signer and overdue, and create lists;
 * suppliers see only their own issued lists (the server scopes them).
 */
import { useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { useMd } from '../../components/useScreen.ts';
import { PlusOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useSearchParams } from 'react-router';
import { COUNTERSIGN_STATUSES, COUNTERSIGN_STATUS_LABELS, countersignApi, type CountersignRow } from '@esm/contracts';
import { ListPage } from '../../components/ListPage.tsx';
import type { FilterField } from '../../components/FilterForm.tsx';
import { formatDateTime } from '../../components/labels.tsx';
import { supplierSource } from '../../components/supplierSource.ts';
import { Permitted } from '../../components/Permitted.tsx';
import type { Run } from '../files/index.ts';
import { DueDate, OverdueTag } from '../notices/index.ts';
import { useRefreshCountersign, type Side } from './api.ts';
import { CountersignDrawer } from './CountersignDrawer.tsx';
import { CountersignForm } from './CountersignForm.tsx';
import { CountersignStatusTag } from './labels.tsx';

export function CountersignList({ side, run, gate }: { side: Side; run?: Run; gate?: React.ReactNode }) {
  const wide = useMd();
  const [params, setParams] = useSearchParams();
  const open = Number(params.get('id')) || null;
  const setOpen = (id: number | null) => setParams(id ? { id: String(id) } : {}, { replace: true });
  const [creating, setCreating] = useState(false);
  const refresh = useRefreshCountersign();
  const internal = side === 'internal';

  const statusOptions = COUNTERSIGN_STATUSES.filter((s) => internal || s !== 'DRAFT').map((s) => ({
    value: s,
    label: COUNTERSIGN_STATUS_LABELS[s],
  }));
  const fields: FilterField[] = [
    { kind: 'text', name: 'keyword', label: '编号或标题', width: 150 },
    ...(internal
      ? [{ kind: 'remote', name: 'supplierCode', label: '供应商', source: supplierSource, width: 180 } as FilterField]
      : []),
    { kind: 'select', name: 'status', label: '状态', width: 130, options: statusOptions },
    {
      kind: 'dateRange',
      from: 'dateFrom',
      to: 'dateTo',
      label: '截止日期',
      placeholder: ['截止日期起', '截止日期止'],
      width: 230,
    },
    ...(internal ? [{ kind: 'text', name: 'signer', label: '会签人账号', width: 120 } as FilterField] : []),
    { kind: 'select', name: 'overdueOnly', label: '逾期', width: 100, options: [{ value: '1', label: '仅看逾期' }] },
  ];

  const number = (v: string, r: CountersignRow) => (
    <Typography.Link onClick={() => setOpen(r.id)} data-testid="countersign-open">
      {v}
    </Typography.Link>
  );
  const status = (r: CountersignRow) => (
    <Space size={0} wrap>
      <CountersignStatusTag status={r.status} />
      {r.overdue && <OverdueTag />}
    </Space>
  );
  const due = (d: string, r: CountersignRow) => <DueDate date={d} overdue={r.overdue} hint="已过会签截止日期" />;
  const view = (r: CountersignRow) => (
    <Button type="link" size="small" onClick={() => setOpen(r.id)}>
      查看
    </Button>
  );
  const columns: ColumnsType<CountersignRow> = wide
    ? [
        { title: '编号', dataIndex: 'number', sorter: true, width: 130, render: number },
        { title: '标题', dataIndex: 'title', width: 180, ellipsis: { showTitle: true } },
        ...(internal
          ? [{ title: '供应商', dataIndex: 'supplierName', width: 150, ellipsis: { showTitle: true } }]
          : []),
        { title: '状态', dataIndex: 'status', width: 130, render: (_: unknown, r) => status(r) },
        {
          title: '当前待会签',
          dataIndex: 'waitingFor',
          width: 100,
          ellipsis: { showTitle: true },
          render: (v: string | null) => v ?? '—',
        },
        { title: '轮次', dataIndex: 'round', width: 70, render: (v: number) => (v ? `第${v}轮` : '—') },
        { title: '截止日期', dataIndex: 'dueDate', sorter: true, width: 104, render: due },
        ...(internal
          ? [{ title: '我方会签人', dataIndex: 'signerNames', width: 130, ellipsis: { showTitle: true } }]
          : []),
        {
          title: '下发时间',
          dataIndex: 'issuedAt',
          sorter: true,
          width: 100,
          render: (v: string | null) =>
            v ? <span title={formatDateTime(v)}>{formatDateTime(v).slice(0, 10)}</span> : '—',
        },
        { title: '操作', key: 'actions', width: 64, fixed: 'right', render: (_: unknown, r) => view(r) },
      ]
    : [
        {
          title: '会签单',
          dataIndex: 'number',
          width: 210,
          render: (v: string, r) => (
            <div style={{ lineHeight: 1.4 }}>
              {number(v, r)}
              <div>{r.title}</div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                截止 {due(r.dueDate, r)}
              </Typography.Text>
            </div>
          ),
        },
        {
          title: '状态',
          dataIndex: 'status',
          width: 130,
          render: (_: unknown, r) => (
            <div>
              {status(r)}
              {r.waitingFor && <div style={{ fontSize: 12 }}>待 {r.waitingFor}</div>}
            </div>
          ),
        },
      ];

  return (
    <>
      <ListPage
        endpoint={internal ? countersignApi.page : countersignApi.supplierPage}
        columns={columns}
        fields={fields}
        rowKey="id"
        filterTestId="countersign-filters"
        emptyText={internal ? '没有会签单' : '暂无需要贵公司会签的会签单'}
        extra={
          internal && (
            <Permitted endpoint={countersignApi.create}>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setCreating(true)}
                style={{ marginBottom: 12 }}
              >
                新建会签单
              </Button>
            </Permitted>
          )
        }
      />
      <CountersignDrawer side={side} id={open} onClose={() => setOpen(null)} run={run} />
      {creating && (
        <CountersignForm
          onClose={() => setCreating(false)}
          onSaved={(saved) => {
            setCreating(false);
            void refresh();
            setOpen(saved.id);
          }}
        />
      )}
      {gate}
    </>
  );
}
