/** A notice's changes: each standard code's old → new version, the new version's state, and 查看. */
import type { ReactNode } from 'react';
import { Button, Table, Tag, Tooltip, Typography } from 'antd';
import { useMd } from '../../components/useScreen.ts';
import type { ColumnsType } from 'antd/es/table';
import { FILE_STATUS_LABELS, type NoticeChange, type NoticeFile } from '@esm/contracts';

export interface ChangesTableProps<C extends NoticeChange> {
  changes: C[];
  onView: (change: C, file: NoticeFile) => void;
  /** Extra columns before 操作 (the supplier's 查看状态). */
  extra?: ColumnsType<C>;
  /** Whether the old version can be opened too (staff). */
  viewOld?: boolean;
  footer?: ReactNode;
}

/** What the file viewer shows for a version of a change. */
export const viewerFile = (c: NoticeChange, f: NoticeFile) => ({ id: f.id, standardCode: c.standardCode, name: c.name, version: f.version, fileName: f.fileName, fileType: f.fileType });

const FILE_COLORS = { EFFECTIVE: 'green', HISTORY: 'default', OBSOLETE: 'red' } as const;

export function ChangesTable<C extends NoticeChange>({ changes, onView, extra = [], viewOld }: ChangesTableProps<C>) {
  // a phone: one column says what changed, so the state and 查看 stay on screen
  const wide = useMd();
  const viewButton = (c: C, f: NoticeFile, label: string) =>
    f.viewable ? (
      <Button type="link" size="small" onClick={() => onView(c, f)} aria-label={`${label} ${c.standardCode} ${f.version}`}>
        {label}
      </Button>
    ) : (
      <Tooltip title={`${f.fileType.toUpperCase()} 文件不能在线查看，请在档案中下载`}>
        <Button type="link" size="small" disabled>
          {label}
        </Button>
      </Tooltip>
    );
  const versions = (c: C) => (
    <span>
      {c.oldFile ? c.oldFile.version : <Typography.Text type="secondary">（新增）</Typography.Text>} → <Typography.Text strong>{c.newFile.version}</Typography.Text>
      {c.newFile.status !== 'EFFECTIVE' && (
        <Tag color={FILE_COLORS[c.newFile.status]} style={{ marginLeft: 6 }}>
          {c.newFile.status === 'HISTORY' ? '已被替代' : FILE_STATUS_LABELS[c.newFile.status]}
        </Tag>
      )}
    </span>
  );
  const actions: ColumnsType<C>[number] = {
    title: '操作',
    key: 'actions',
    width: viewOld ? 170 : 110,
    render: (_: unknown, c) => (
      <span style={{ whiteSpace: wide ? 'nowrap' : undefined }}>
        {viewButton(c, c.newFile, '查看新版本')}
        {viewOld && c.oldFile && viewButton(c, c.oldFile, '旧版本')}
      </span>
    ),
  };
  const narrow: ColumnsType<C> = [
    {
      title: '变更',
      key: 'change',
      render: (_: unknown, c) => (
        <div style={{ lineHeight: 1.5 }}>
          <div>{c.standardCode}</div>
          <Typography.Text type="secondary">{c.name}</Typography.Text>
          <div>{versions(c)}</div>
        </div>
      ),
    },
    ...extra.map((x) => ({ ...x, width: 110 })),
    { ...actions, width: 100 },
  ];
  const columns: ColumnsType<C> = [
    { title: '标准编号', dataIndex: 'standardCode', width: 150 },
    { title: '名称', dataIndex: 'name', width: 200, ellipsis: { showTitle: true } },
    {
      title: '物料',
      dataIndex: 'materialCode',
      width: 190,
      ellipsis: true,
      render: (code: string, c) => (
        <span title={`${code} ${c.materialName}`}>
          {code} <Typography.Text type="secondary">{c.materialName}</Typography.Text>
        </span>
      ),
    },
    { title: '版本变更', key: 'versions', width: 150, render: (_: unknown, c) => versions(c) },
    { title: '新版本生效日期', dataIndex: ['newFile', 'effectiveDate'], width: 120 },
    ...extra,
    actions,
  ];
  if (!wide) return <Table<C> size="small" rowKey="id" columns={narrow} dataSource={changes} pagination={false} />;
  return <Table<C> size="middle" rowKey="id" columns={columns} dataSource={changes} pagination={false} scroll={{ x: columns.reduce((w, c) => w + Number(c.width ?? 120), 0) }} />;
}
