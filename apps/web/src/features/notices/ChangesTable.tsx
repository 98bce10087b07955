/** A notice's changes: each standard code's old → new version, the new version's state, and 查看. */
import type { ReactNode } from 'react';
import { Button, Tag, Tooltip, Typography } from 'antd';
import { ListTable } from '../../components/ListTable.tsx';
import type { ListColumns } from '../../components/listColumns.tsx';
import { FILE_STATUS_LABELS, type NoticeChange, type NoticeFile } from '@esm/contracts';

export interface ChangesTableProps<C extends NoticeChange> {
  changes: C[];
  onView: (change: C, file: NoticeFile) => void;
  /** Extra columns before 操作 (the supplier's 查看状态). */
  extra?: ListColumns<C>;
  /** Whether the old version can be opened too (staff). */
  viewOld?: boolean;
  footer?: ReactNode;
}

/** What the file viewer shows for a version of a change. */
export const viewerFile = (c: NoticeChange, f: NoticeFile) => ({
  id: f.id,
  standardCode: c.standardCode,
  name: c.name,
  version: f.version,
  fileName: f.fileName,
  fileType: f.fileType,
});

const FILE_COLORS = { EFFECTIVE: 'green', HISTORY: 'default', OBSOLETE: 'red' } as const;

export function ChangesTable<C extends NoticeChange>({ changes, onView, extra = [], viewOld }: ChangesTableProps<C>) {
  const viewButton = (c: C, f: NoticeFile, label: string) =>
    f.viewable ? (
      <Button
        type="link"
        size="small"
        onClick={() => onView(c, f)}
        aria-label={`${label} ${c.standardCode} ${f.version}`}
      >
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
      {c.oldFile ? c.oldFile.version : <Typography.Text type="secondary">（新增）</Typography.Text>} →{' '}
      <Typography.Text strong>{c.newFile.version}</Typography.Text>
      {c.newFile.status !== 'EFFECTIVE' && (
        <Tag color={FILE_COLORS[c.newFile.status]} style={{ marginLeft: 6 }}>
          {c.newFile.status === 'HISTORY' ? '已被替代' : FILE_STATUS_LABELS[c.newFile.status]}
        </Tag>
      )}
    </span>
  );
  // a phone: what changed (code, name) and how (versions, the supplier's 查看状态) beside 查看; the
  // material and the date fold out (listColumns.tsx)
  const columns: ListColumns<C> = [
    { title: '标准编号', dataIndex: 'standardCode', role: 'identity' },
    { title: '名称', dataIndex: 'name', role: 'identity', ellipsis: { showTitle: true } },
    {
      title: '物料',
      dataIndex: 'materialCode',
      ellipsis: true,
      render: (code: string, c) => (
        <span title={`${code} ${c.materialName}`}>
          {code} <Typography.Text type="secondary">{c.materialName}</Typography.Text>
        </span>
      ),
    },
    { title: '版本变更', key: 'versions', role: 'state', render: (_: unknown, c) => versions(c) },
    { title: '新版本生效日期', dataIndex: ['newFile', 'effectiveDate'] },
    ...extra,
    {
      title: '操作',
      key: 'actions',
      render: (_: unknown, c) => (
        <span className="esm-nowrap-wide">
          {viewButton(c, c.newFile, '查看新版本')}
          {viewOld && c.oldFile && viewButton(c, c.oldFile, '旧版本')}
        </span>
      ),
    },
  ];
  return <ListTable<C> size="middle" rowKey="id" columns={columns} dataSource={changes} pagination={false} />;
}
