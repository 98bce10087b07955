/**
 * The recipients matrix of one notice: each supplier with why it received the notice, its state
 * (未读 / 已读 / 已确认, 逾期), who read and confirmed it when and from where, the versions it
 * confirmed with their sha256, and reminders. Filter by state (with the counts) and supplier;
 * 催办逾期 and 导出Excel apply to what is shown.
 */
import { useState } from 'react';
import { App, Button, Input, Popover, Segmented, Space, Tooltip, Typography } from 'antd';
import { BellOutlined, DownloadOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import {
  RECIPIENT_FILTER_LABELS,
  noticesApi,
  type NoticeDetail,
  type RecipientFilter,
  type RecipientRow,
} from '@esm/contracts';
import { OVERDUE_ROW, PagedTable } from '../../components/PagedTable.tsx';
import { formatDateTime } from '../../components/labels.tsx';
import { serverErrorText } from '../../components/serverErrors.ts';
import { exportRecipients, remindNotice, useRefreshNotices } from './api.ts';
import { OverdueTag, RecipientStatusTag } from './labels.tsx';
import { Permitted } from '../../components/Permitted.tsx';
import { NoticeEvidenceButton } from '../audit/index.ts';

/**
 * When, who and from where. Who and where are governed columns: absent when hidden for
 * the caller (then only what is left shows), masked as the server masked them.
 */
const who = (at: string | null, name?: string | null, account?: string | null, ip?: string | null) => {
  if (!at) return <Typography.Text type="secondary">—</Typography.Text>;
  const person = name ?? account;
  const title = [name && account ? `${name}（${account}）` : person, ip ? `IP ${ip}` : null].filter(Boolean).join(' ');
  return (
    <div style={{ lineHeight: 1.35 }}>
      <div>{formatDateTime(at).slice(0, 16)}</div>
      {(person || ip) && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} title={title}>
          {[person, ip].filter(Boolean).join(' · ')}
        </Typography.Text>
      )}
    </div>
  );
};

const columns: ColumnsType<RecipientRow> = [
  {
    title: '供应商',
    dataIndex: 'supplierCode',
    sorter: true,
    width: 220,
    render: (code: string, r) => (
      <div style={{ lineHeight: 1.35 }}>
        <div>{code}</div>
        <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis={{ tooltip: r.supplierName }}>
          {r.supplierName}
        </Typography.Text>
      </div>
    ),
  },
  {
    title: '接收依据',
    dataIndex: 'basis',
    width: 170,
    render: (basis: RecipientRow['basis']) => (
      <Tooltip
        title={basis
          .map((b) => `${b.materialCode} ${b.materialName}（授权至 ${formatDateTime(b.validUntil).slice(0, 10)}）`)
          .join('；')}
      >
        <span>
          供货 {basis[0]?.materialCode}
          {basis.length > 1 ? ` 等 ${basis.length} 个物料` : ''}
        </span>
      </Tooltip>
    ),
  },
  {
    title: '状态',
    dataIndex: 'status',
    width: 130,
    render: (s: RecipientRow['status'], r) => (
      <Space size={0} wrap>
        <RecipientStatusTag status={s} />
        {r.overdue && <OverdueTag />}
      </Space>
    ),
  },
  {
    title: '阅读',
    dataIndex: 'readAt',
    sorter: true,
    width: 170,
    render: (at: string | null, r) => who(at, r.readByName, r.readByAccount),
  },
  {
    title: '确认',
    dataIndex: 'confirmedAt',
    sorter: true,
    width: 200,
    render: (at: string | null, r) => who(at, r.confirmedByName, r.confirmedByAccount, r.confirmedIp),
  },
  {
    title: '确认的版本',
    dataIndex: 'confirmedFiles',
    width: 120,
    render: (files: RecipientRow['confirmedFiles']) =>
      files.length ? (
        <Popover
          title="确认的文件版本"
          content={
            <div style={{ maxWidth: 520 }}>
              {files.map((f) => (
                <div key={f.fileId} style={{ marginBottom: 4 }}>
                  {f.standardCode} {f.version}
                  <Typography.Text
                    type="secondary"
                    copyable={{ text: f.sha256 }}
                    style={{ display: 'block', fontFamily: 'monospace', fontSize: 12 }}
                  >
                    sha256 {f.sha256}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    查看于 {formatDateTime(f.viewedAt)}
                  </Typography.Text>
                </div>
              ))}
            </div>
          }
        >
          <Button type="link" size="small" style={{ padding: 0 }}>
            {files.length} 个版本
          </Button>
        </Popover>
      ) : (
        <Typography.Text type="secondary">—</Typography.Text>
      ),
  },
  {
    title: '催办',
    dataIndex: 'remindCount',
    width: 110,
    render: (n: number, r) =>
      n ? (
        <span title={`最近催办 ${formatDateTime(r.lastRemindedAt)}`}>{n} 次</span>
      ) : (
        <Typography.Text type="secondary">—</Typography.Text>
      ),
  },
];

export function RecipientMatrix({ notice }: { notice: NoticeDetail }) {
  const { message, modal } = App.useApp();
  const refresh = useRefreshNotices();
  const [state, setState] = useState<RecipientFilter | 'ALL'>('ALL');
  const [keyword, setKeyword] = useState<string | undefined>();
  const [busy, setBusy] = useState<'remind' | 'export' | null>(null);
  const unread = notice.recipientCount - notice.readCount;
  const counts: Record<RecipientFilter | 'ALL', number> = {
    ALL: notice.recipientCount,
    UNREAD: unread,
    READ: notice.readCount - notice.confirmedCount,
    CONFIRMED: notice.confirmedCount,
    OVERDUE: notice.overdueCount,
  };
  const filters = { id: notice.id, state: state === 'ALL' ? undefined : state, keyword };

  const remind = () =>
    modal.confirm({
      title: `催办 ${notice.overdueCount} 家逾期未确认的供应商？`,
      content: '被催办的供应商在其通知列表中会看到催办提示；1 小时内已催办过的不再重复催办。',
      okText: '催办',
      cancelText: '取消',
      onOk: async () => {
        setBusy('remind');
        try {
          message.success((await remindNotice(notice.id)).message);
          await refresh();
        } catch (e) {
          message.error(serverErrorText(e, '催办失败'));
        } finally {
          setBusy(null);
        }
      },
    });

  const doExport = async () => {
    setBusy('export');
    try {
      message.success(`已导出：${await exportRecipients(filters)}`);
    } catch (e) {
      message.error(serverErrorText(e, '导出失败'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <PagedTable
      endpoint={noticesApi.recipients}
      columns={columns}
      filters={filters}
      rowKey="id"
      rowClassName={(r) => (r.overdue ? OVERDUE_ROW : '')}
      emptyText={notice.status === 'DRAFT' ? '草稿尚未发布，发布时确定接收的供应商' : undefined}
      toolbar={
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 12 }}>
          <Segmented<RecipientFilter | 'ALL'>
            value={state}
            onChange={setState}
            options={(['ALL', 'UNREAD', 'READ', 'CONFIRMED', 'OVERDUE'] as const).map((k) => ({
              value: k,
              label: `${k === 'ALL' ? '全部' : RECIPIENT_FILTER_LABELS[k]} ${counts[k]}`,
            }))}
            aria-label="接收状态"
            data-testid="recipient-states"
          />
          <Input.Search
            allowClear
            placeholder="供应商编码或名称"
            style={{ width: 220 }}
            onSearch={(v) => setKeyword(v.trim() || undefined)}
            aria-label="供应商"
          />
          <div style={{ flex: 1 }} />
          {notice.status === 'PUBLISHED' && (
            <Permitted endpoint={noticesApi.remind}>
              <Tooltip title={notice.overdueCount ? undefined : '没有逾期未确认的供应商'}>
                <Button
                  icon={<BellOutlined />}
                  disabled={!notice.overdueCount}
                  loading={busy === 'remind'}
                  onClick={remind}
                >
                  催办逾期（{notice.overdueCount}）
                </Button>
              </Tooltip>
            </Permitted>
          )}
          <Permitted endpoint={noticesApi.exportRecipients}>
            <Button
              icon={<DownloadOutlined />}
              disabled={notice.status === 'DRAFT'}
              loading={busy === 'export'}
              onClick={doExport}
            >
              导出Excel
            </Button>
          </Permitted>
          <NoticeEvidenceButton id={notice.id} disabled={notice.status === 'DRAFT'} />
        </div>
      }
    />
  );
}
