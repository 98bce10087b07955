/**
 * 授权访问报告 (/esm/drawingAuthorization/drawingAccessReport — not in the legacy portal;
 * for audits): for a material or a drawing (standard code) and a day, which suppliers could see
 * it that day, under which grant, approved by whom and when, and what they viewed, downloaded
 * and printed under those grants. The query is in the address (?materialCode=&standardCode=&date=)
 * so the grant pages link here; exportable to Excel.
 */
import { useMemo } from 'react';
import { Button, DatePicker, Descriptions, Empty, Form, Input, Spin, Tag, Typography } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useSearchParams } from 'react-router';
import {
  ACCESS_REPORT_COLUMNS,
  FILE_STATUS_LABELS,
  empowerApi,
  LOG_ACTION_LABELS,
  REPORT_EVENTS_SHOWN,
  type AccessReportRequest,
  type FileStatus,
  type ReportEvent,
  type ReportGrant,
} from '@esm/contracts';
import { ApiError } from '../../../api/client.ts';
import { formatDateTime } from '../../../components/labels.tsx';
import { ListTable } from '../../../components/ListTable.tsx';
import type { ListColumns } from '../../../components/listColumns.tsx';
import { serverErrorText } from '../../../components/serverErrors.ts';
import { exportReport, useAccessReport } from '../api.ts';
import { Permitted } from '../../../components/Permitted.tsx';
import { useColumnModes } from '../../../lib/permissions.ts';
import { ExcelButton } from '../../../components/ExcelButton.tsx';
import { CodeName, Notice, minute } from '../labels.tsx';
import { SubjectEvidenceButton } from '../../audit/index.ts';

interface Values {
  materialCode?: string;
  standardCode?: string;
  date?: Dayjs;
}

// a phone: who holds which grant and for how long; how it came about and its use fold out
const GRANT_COLUMNS: ListColumns<ReportGrant> = [
  {
    title: '供应商',
    dataIndex: 'supplierCode',
    role: 'identity',
    width: 180,
    render: (c: string, g) => <CodeName code={c} name={g.supplierName} width={170} />,
  },
  {
    title: '物料',
    dataIndex: 'materialCode',
    role: 'identity',
    width: 130,
    render: (c: string, g) => (
      <div>
        <CodeName code={c} name={g.materialName} width={120} />
        {!g.suppliesNow && <Tag color="red">现未供货</Tag>}
      </div>
    ),
  },
  {
    title: '授权期',
    key: 'term',
    role: 'state',
    width: 180,
    render: (_: unknown, g) => (
      <div style={{ lineHeight: 1.4 }}>
        <div>自 {minute(g.validFrom)}</div>
        <div>至 {minute(g.validUntil)}</div>
        {g.revokedAt && (
          <Typography.Text type="danger" style={{ fontSize: 12 }} title={g.revokeReason ?? undefined}>
            {minute(g.revokedAt)} 被{g.revokedByName}撤销：{g.revokeReason}
          </Typography.Text>
        )}
      </div>
    ),
  },
  {
    title: '依据',
    key: 'source',
    width: 150,
    render: (_: unknown, g) =>
      g.imported ? (
        <Tag>历史导入（授权 {g.grantId}）</Tag>
      ) : (
        <div style={{ lineHeight: 1.4 }}>
          <div>
            申请 {g.applicationId}（授权 {g.grantId}）
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            申请人 {g.applicantName}
          </Typography.Text>
        </div>
      ),
  },
  {
    title: '审批人',
    dataIndex: 'approverName',
    width: 150,
    render: (name: string | null, g) =>
      name ? (
        <div style={{ lineHeight: 1.4 }}>
          <div>
            {name}（{g.approverAccount}）
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {minute(g.approvedAt)}
          </Typography.Text>
        </div>
      ) : (
        '—'
      ),
  },
  {
    title: '查看 / 下载 / 打印',
    key: 'counts',
    width: 120,
    render: (_: unknown, g) => `${g.views} / ${g.downloads} / ${g.prints}`,
  },
  {
    title: '最近访问',
    dataIndex: 'lastAccessAt',
    width: 110,
    render: (at: string | null) => (
      <span style={{ whiteSpace: 'pre-line' }}>{at ? formatDateTime(at).replace(' ', '\n') : '—'}</span>
    ),
  },
];

const ACTION_COLORS: Record<ReportEvent['action'], string> = { VIEW: 'blue', DOWNLOAD: 'purple', PRINT: 'orange' };
// a phone: when, who and which file, and what was done (查看/下载/打印 — a state, not buttons)
const EVENT_COLUMNS: ListColumns<ReportEvent> = [
  { title: '时间', dataIndex: 'createdAt', role: 'identity', width: 160, render: formatDateTime },
  {
    title: '操作',
    dataIndex: 'action',
    role: 'state',
    width: 70,
    render: (a: ReportEvent['action']) => <Tag color={ACTION_COLORS[a]}>{LOG_ACTION_LABELS[a]}</Tag>,
  },
  {
    title: '供应商',
    dataIndex: 'supplierCode',
    role: 'identity',
    width: 180,
    render: (c: string, e) => <CodeName code={c} name={e.supplierName} width={170} />,
  },
  {
    title: '用户',
    dataIndex: 'userAccount',
    width: 140,
    render: (a: string | undefined, e) => <CodeName code={a ?? ''} name={e.userName} width={130} />,
  },
  {
    title: '文件',
    dataIndex: 'standardCode',
    role: 'identity',
    width: 230,
    render: (c: string | null, e) => <CodeName code={`${c ?? '—'} ${e.version ?? ''}`} name={e.fileName} width={220} />,
  },
  { title: '依据授权', dataIndex: 'grantId', width: 80 },
  { title: 'IP', dataIndex: 'ip', width: 120, render: (ip: string | null) => ip ?? '—' },
];

export default function DrawingAccessReportPage() {
  const [params, setParams] = useSearchParams();
  const [form] = Form.useForm<Values>();
  const request = useMemo<AccessReportRequest | null>(() => {
    const materialCode = params.get('materialCode')?.trim() || undefined;
    const standardCode = params.get('standardCode')?.trim() || undefined;
    const date = params.get('date') || dayjs().format('YYYY-MM-DD');
    return materialCode || standardCode ? { materialCode, standardCode, date } : null;
  }, [params]);
  const report = useAccessReport(request);
  // who and from where are governed (ACCESS_REPORT_COLUMNS): a column whose fields are all hidden for the user goes
  const modes = useColumnModes(ACCESS_REPORT_COLUMNS);
  const eventColumns = useMemo(() => {
    const hidden = (field: string) => modes[`events.${field}`] === 'HIDDEN';
    return EVENT_COLUMNS.filter(
      (c) =>
        !('dataIndex' in c) ||
        (c.dataIndex === 'userAccount'
          ? !(hidden('userAccount') && hidden('userName'))
          : !(typeof c.dataIndex === 'string' && hidden(c.dataIndex))),
    );
  }, [modes]);
  const fieldErrors = report.error instanceof ApiError ? report.error.errors : [];
  // each supplier's evidence package on the subject shown: a drawing's (every version) or the material's
  const standardCodeShown = report.data?.standardCode ?? undefined;
  const grantColumns = useMemo<ListColumns<ReportGrant>>(
    () => [
      ...GRANT_COLUMNS,
      {
        title: '证据包',
        key: 'evidence',
        width: 100,
        render: (_: unknown, g) => (
          <SubjectEvidenceButton
            supplierCode={g.supplierCode}
            standardCode={standardCodeShown}
            materialCode={standardCodeShown ? undefined : g.materialCode}
          />
        ),
      },
    ],
    [standardCodeShown],
  );

  const submit = (v: Values) => {
    const next = new URLSearchParams();
    if (v.materialCode?.trim()) next.set('materialCode', v.materialCode.trim());
    if (v.standardCode?.trim()) next.set('standardCode', v.standardCode.trim());
    next.set('date', (v.date ?? dayjs()).format('YYYY-MM-DD'));
    setParams(next);
  };
  const r = report.data;

  return (
    <div>
      <Form<Values>
        form={form}
        layout="inline"
        name="access-report"
        style={{ rowGap: 12, marginBottom: 16 }}
        initialValues={{
          materialCode: request?.materialCode,
          standardCode: request?.standardCode,
          date: dayjs(request?.date),
        }}
        onFinish={(v) => {
          if (!v.materialCode?.trim() && !v.standardCode?.trim()) {
            form.setFields([{ name: 'materialCode', errors: ['请输入物料编码或标准编号'] }]);
            return;
          }
          submit(v);
        }}
      >
        <Form.Item
          name="materialCode"
          validateStatus={fieldErrors.some((e) => e.field === 'materialCode') ? 'error' : undefined}
          help={fieldErrors.find((e) => e.field === 'materialCode')?.message}
        >
          <Input allowClear placeholder="物料编码" aria-label="物料编码" style={{ width: 160 }} maxLength={40} />
        </Form.Item>
        <Form.Item name="standardCode">
          <Input
            allowClear
            placeholder="标准编号（图纸）"
            aria-label="标准编号"
            style={{ width: 180 }}
            maxLength={64}
          />
        </Form.Item>
        <Form.Item name="date" rules={[{ required: true, message: '请选择日期' }]}>
          <DatePicker allowClear={false} aria-label="日期" placeholder="日期" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            查询
          </Button>
        </Form.Item>
        <Form.Item>
          <Permitted endpoint={empowerApi.reportExcel}>
            <ExcelButton disabled={!r || !request} run={() => exportReport(request!)} />
          </Permitted>
        </Form.Item>
      </Form>

      {!request ? (
        <Empty description="输入物料编码或标准编号，选择日期，查看当日哪些供应商可以查看它、依据哪项授权、由谁批准，以及他们的查看、下载、打印记录" />
      ) : report.isError ? (
        <Notice kind="error" testId="report-refusal">
          {serverErrorText(report.error, '查询失败')}
        </Notice>
      ) : !r ? (
        <Spin />
      ) : (
        <div data-testid="access-report">
          <Descriptions
            size="small"
            column={{ xs: 1, md: 2 }}
            style={{ marginBottom: 12 }}
            items={[
              {
                key: 'subject',
                label: '对象',
                children: r.standardCode
                  ? `图纸 ${r.standardCode}`
                  : `物料 ${r.materials[0]?.code} ${r.materials[0]?.name}`,
              },
              ...(r.standardCode
                ? [
                    {
                      key: 'materials',
                      label: '物料',
                      children: r.materials.map((m) => `${m.code} ${m.name}`).join('、'),
                    },
                  ]
                : []),
              { key: 'date', label: '日期', children: r.date },
              {
                key: 'who',
                label: '当日可查看',
                children: `${new Set(r.grants.map((g) => g.supplierCode)).size} 家供应商，${r.grants.length} 项授权`,
              },
              ...(r.versions.length
                ? [
                    {
                      key: 'versions',
                      label: '版本',
                      span: 2,
                      children: r.versions.map((v) => (
                        <Tag key={v.id}>
                          {v.version} · {FILE_STATUS_LABELS[v.status as FileStatus] ?? v.status} · 生效{' '}
                          {v.effectiveDate}
                          {v.obsoletedAt ? ` · 作废 ${minute(v.obsoletedAt)}` : ''}
                        </Tag>
                      )),
                    },
                  ]
                : []),
            ]}
          />
          <Typography.Title level={5}>当日可查看的供应商及其授权</Typography.Title>
          <div data-testid="report-grants">
            <ListTable<ReportGrant>
              rowKey="grantId"
              size="small"
              columns={grantColumns}
              dataSource={r.grants}
              pagination={false}
              locale={{ emptyText: '当日没有供应商持有该物料的有效授权' }}
            />
          </div>
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            授权期内的查看、下载、打印记录（共 {r.eventsTotal} 条
            {r.eventsTotal > REPORT_EVENTS_SHOWN ? `，显示最近 ${REPORT_EVENTS_SHOWN} 条，全部见导出` : ''}）
          </Typography.Title>
          <div data-testid="report-events">
            <ListTable<ReportEvent>
              rowKey="id"
              size="small"
              columns={eventColumns}
              dataSource={r.events}
              pagination={{ pageSize: 10, showTotal: (n) => `共 ${n} 条`, hideOnSinglePage: true }}
              locale={{ emptyText: '授权期内没有查看、下载或打印记录' }}
            />
          </div>
        </div>
      )}
    </div>
  );
}
