/**
 * 审计校验 (/esm/system/auditVerify — not in the legacy spec): every row that records an act
 * (views, prints, downloads, confirmations, approvals, sign-ins …) is chained to the one before
 * it by its hash. This page shows the last verification of the chains (`pnpm audit:verify` or 立即校验
 * here), what it found, and the head of each chain at the end of each day, which an operator
 * exports and keeps outside the database.
 */
import { useState } from 'react';
import { Alert, App, Button, DatePicker, Descriptions, Empty, Space, Spin, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DownloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import {
  AUDIT_PROBLEM_LABELS,
  AUDIT_SOURCE_LABELS,
  auditApi,
  type AuditVerification,
  type DayHead,
} from '@esm/contracts';
import { formatDateTime } from '../../../components/labels.tsx';
import { serverErrorText } from '../../../components/serverErrors.ts';
import { useMd } from '../../../components/useScreen.ts';
import { Permitted } from '../../../components/Permitted.tsx';
import { exportHeads, useAuditStatus, useDayHeads, useVerifyNow } from '../api.ts';

const Hash = ({ hash }: { hash: string }) => (
  <Typography.Text code copyable={{ text: hash }} style={{ fontSize: 12, wordBreak: 'break-all' }}>
    {hash}
  </Typography.Text>
);

const HEAD_COLUMNS: ColumnsType<AuditVerification['heads'][number]> = [
  { title: '记录', dataIndex: 'label', width: 260 },
  { title: '链长（行）', dataIndex: 'seq', width: 100 },
  { title: '链头哈希（SHA-256）', dataIndex: 'hash', render: (h: string) => <Hash hash={h} /> },
];
/** On a phone: the record with its hash under it, its length beside (no table wider than the screen). */
const NARROW_HEAD_COLUMNS: ColumnsType<AuditVerification['heads'][number]> = [
  {
    title: '记录 / 链头哈希',
    dataIndex: 'label',
    render: (label: string, h) => (
      <div>
        <div>{label}</div>
        <Hash hash={h.hash} />
      </div>
    ),
  },
  { title: '链长', dataIndex: 'seq', width: 64 },
];

const PROBLEM_COLUMNS: ColumnsType<AuditVerification['problems'][number]> = [
  {
    title: '问题',
    dataIndex: 'kind',
    width: 130,
    render: (k: keyof typeof AUDIT_PROBLEM_LABELS) => <Tag color="red">{AUDIT_PROBLEM_LABELS[k]}</Tag>,
  },
  { title: '表', dataIndex: 'table', width: 170 },
  { title: '行 id', dataIndex: 'id', width: 80, render: (id: number | null) => id ?? '—' },
  { title: '链位置', dataIndex: 'seq', width: 80, render: (s: number | null) => s ?? '—' },
  { title: '说明', dataIndex: 'message' },
];

const DAY_COLUMNS: ColumnsType<DayHead> = [
  { title: '日期', dataIndex: 'day', width: 110 },
  { title: '记录', dataIndex: 'label', width: 260 },
  { title: '链位置', dataIndex: 'seq', width: 90 },
  { title: '当日链头哈希（SHA-256）', dataIndex: 'hash', render: (h: string) => <Hash hash={h} /> },
];
const NARROW_DAY_COLUMNS: ColumnsType<DayHead> = [
  {
    title: '日期 · 记录 / 当日链头哈希',
    dataIndex: 'label',
    render: (label: string, h) => (
      <div>
        <div>
          {h.day} · {label}
        </div>
        <Hash hash={h.hash} />
      </div>
    ),
  },
  { title: '链位置', dataIndex: 'seq', width: 70 },
];

function LastVerification() {
  const { message } = App.useApp();
  const status = useAuditStatus();
  const wide = useMd();
  const verifyNow = useVerifyNow();
  const [busy, setBusy] = useState(false);
  const last = status.data;
  const run = async () => {
    setBusy(true);
    try {
      message.success(await verifyNow());
    } catch (e) {
      message.error(serverErrorText(e, '校验失败'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="audit-last" style={{ marginBottom: 24 }}>
      <Space wrap style={{ marginBottom: 12, justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={5} id="audit-last" style={{ margin: 0 }}>
          上次校验
        </Typography.Title>
        <Permitted endpoint={auditApi.verify}>
          <Button type="primary" icon={<SafetyCertificateOutlined />} loading={busy} onClick={run}>
            立即校验
          </Button>
        </Permitted>
      </Space>
      {status.isLoading ? (
        <Spin />
      ) : status.isError ? (
        <Alert type="error" showIcon title={serverErrorText(status.error, '读取校验结果失败')} />
      ) : !last ? (
        <Empty description="尚未校验过：点击「立即校验」，或在服务器上运行 pnpm audit:verify" />
      ) : (
        <div data-testid="audit-last">
          <Descriptions
            size="small"
            bordered
            column={{ xs: 1, md: 2 }}
            style={{ marginBottom: 12 }}
            items={[
              {
                key: 'result',
                label: '结果',
                children: last.ok ? (
                  <Tag color="green">通过：审计链完整</Tag>
                ) : (
                  <Tag color="red">未通过：{last.problems.length} 处问题</Tag>
                ),
              },
              { key: 'at', label: '校验时间', children: formatDateTime(last.createdAt) },
              {
                key: 'by',
                label: '校验方式',
                children: `${AUDIT_SOURCE_LABELS[last.source]}${last.source === 'PAGE' ? ` · ${last.userName}` : ''}`,
              },
              { key: 'rows', label: '校验行数', children: last.rows },
            ]}
          />
          {last.problems.length > 0 && (
            <Table
              rowKey={(p) => `${p.table}-${p.kind}-${p.id}-${p.seq}`}
              size="small"
              columns={PROBLEM_COLUMNS}
              dataSource={last.problems}
              pagination={false}
              scroll={{ x: 'max-content' }}
              style={{ marginBottom: 12 }}
              aria-label="发现的问题"
            />
          )}
          <Table
            rowKey="table"
            size="small"
            columns={wide ? HEAD_COLUMNS : NARROW_HEAD_COLUMNS}
            dataSource={last.heads}
            pagination={false}
            scroll={wide ? { x: 'max-content' } : undefined}
            aria-label="各链链头"
          />
        </div>
      )}
    </section>
  );
}

function DayHeads() {
  const { message } = App.useApp();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, 'day'), dayjs()]);
  const req = { dateFrom: range[0].format('YYYY-MM-DD'), dateTo: range[1].format('YYYY-MM-DD') };
  const heads = useDayHeads(req);
  const wide = useMd();
  return (
    <section aria-labelledby="audit-days">
      <Typography.Title level={5} id="audit-days" style={{ marginBottom: 8 }}>
        每日链头
      </Typography.Title>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title="请每天导出当日链头，保存到数据库以外的地方（另一台服务器、邮件或打印存档）。"
        description="能写数据库的人可以改写整条链并重新计算所有哈希，使链自身仍能校验通过；但改不了已保存在外面的链头。运行 pnpm audit:verify --heads 导出的文件，即可发现这种改写。"
      />
      <Space wrap style={{ marginBottom: 12 }}>
        <DatePicker.RangePicker
          aria-label="日期范围"
          allowClear={false}
          value={range}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
        />
        <Button
          icon={<DownloadOutlined />}
          disabled={!heads.data?.heads.length}
          onClick={() =>
            message.success(`已导出：${exportHeads(heads.data!.dateFrom, heads.data!.dateTo, heads.data!.heads)}`)
          }
        >
          导出链头（JSON）
        </Button>
      </Space>
      {heads.isError ? (
        <Alert type="error" showIcon title={serverErrorText(heads.error, '查询失败')} />
      ) : (
        <Table
          rowKey={(h) => `${h.day}-${h.table}`}
          size="small"
          loading={heads.isLoading}
          columns={wide ? DAY_COLUMNS : NARROW_DAY_COLUMNS}
          dataSource={heads.data?.heads ?? []}
          pagination={{ defaultPageSize: 24, showSizeChanger: false, showTotal: (n) => `共 ${n} 条` }}
          scroll={wide ? { x: 'max-content' } : undefined}
          aria-label="每日链头"
          locale={{ emptyText: '所选日期内没有记录' }}
        />
      )}
    </section>
  );
}

export default function AuditVerifyPage() {
  return (
    <div>
      <LastVerification />
      <DayHeads />
    </div>
  );
}
