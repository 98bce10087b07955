/** The columns of an archive list (archive information, its tree page and the history). */
import type { ReactNode } from 'react';
import { Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { StandardFileRow } from '@esm/contracts';
import {
  SecretTag,
  StatusTag,
  categoryLabel,
  formatDate,
  formatDateTime,
  formatFileSize,
} from '../../components/labels.tsx';

/**
 * Shown until the user switches them on (列设置): at 1366 px, beside the tree, the columns a user
 * decides by — code, name, version, status, material and the actions — fit without scrolling.
 */
export const ARCHIVE_DEFAULT_HIDDEN = [
  'category',
  'secretLevel',
  'effectiveDate',
  'fileName',
  'uploaderName',
  'createdAt',
  'obsoletedAt',
] as const;

/** 类别, 保密等级 and 生效日期, as every list of archive files shows them. */
export const FILE_CLASS_COLUMNS: ColumnsType<StandardFileRow> = [
  { title: '类别', dataIndex: 'category', width: 90, render: categoryLabel },
  {
    title: '保密等级',
    dataIndex: 'secretLevel',
    width: 90,
    render: (v: StandardFileRow['secretLevel']) => <SecretTag level={v} />,
  },
  { title: '生效日期', dataIndex: 'effectiveDate', sorter: true, width: 120, render: formatDate },
];

export interface FileColumnOptions {
  /** The 操作 cell of a row. */
  actions: (row: StandardFileRow) => ReactNode;
  /** History lists add when and why a version was made obsolete. */
  withObsolete?: boolean;
}

export function fileColumns({ actions, withObsolete }: FileColumnOptions): ColumnsType<StandardFileRow> {
  return [
    { title: '标准编号', dataIndex: 'standardCode', sorter: true, width: 150, fixed: 'left', ellipsis: true },
    { title: '名称', dataIndex: 'name', sorter: true, width: 150, ellipsis: true },
    {
      title: '版本',
      dataIndex: 'version',
      sorter: true,
      width: 100,
      render: (v: string, r) => (
        <span>
          {v} <Typography.Text type="secondary">第{r.versionNo}版</Typography.Text>
        </span>
      ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 80,
      render: (v: StandardFileRow['status']) => <StatusTag status={v} />,
    },
    {
      title: '物料',
      dataIndex: 'materialCode',
      width: 150,
      ellipsis: true,
      render: (v: string, r) => (
        <span title={`${v} ${r.materialName}`}>
          {v} <Typography.Text type="secondary">{r.materialName}</Typography.Text>
        </span>
      ),
    },
    ...FILE_CLASS_COLUMNS,
    ...(withObsolete
      ? ([
          { title: '作废时间', dataIndex: 'obsoletedAt', width: 170, render: formatDateTime },
          {
            title: '作废原因',
            dataIndex: 'obsoleteReason',
            width: 160,
            ellipsis: true,
            render: (v: string | null) => v ?? '—',
          },
        ] as ColumnsType<StandardFileRow>)
      : []),
    {
      title: '文件',
      dataIndex: 'fileName',
      width: 200,
      ellipsis: true,
      render: (v: string, r) => (
        <span title={v}>
          {v} <Typography.Text type="secondary">（{formatFileSize(r.fileSize)}）</Typography.Text>
        </span>
      ),
    },
    { title: '上传人', dataIndex: 'uploaderName', width: 100, ellipsis: true },
    { title: '上传时间', dataIndex: 'createdAt', sorter: true, width: 170, render: formatDateTime },
    { title: '操作', key: 'actions', fixed: 'right', width: 160, render: (_: unknown, r) => actions(r) },
  ];
}

/** The table's scroll width: the sum of the columns' widths. */
