/** 可见供应商: the suppliers of a file's material, their grant and whether they can open it now. */
import { Drawer, Table, Tag, Typography } from 'antd';
import { EMPTY_TABLE_TEXT, type StandardFileRow } from '@esm/contracts';
import type { FileSupplierRow } from '@esm/contracts';
import { useFileSuppliers } from './api.ts';
import { GrantTag, formatDate } from '../../components/labels.tsx';
import { ErrorResult } from '../../components/ErrorResult.tsx';
import { ContactsButton } from '../phoneLog/index.ts';
import { ClearOfToasts } from '../../components/ClearOfToasts.tsx';

const columns = [
  { title: '供应商编码', dataIndex: 'supplierCode', width: 110 },
  { title: '供应商名称', dataIndex: 'supplierName', ellipsis: true },
  {
    title: '授权',
    dataIndex: 'grantState',
    width: 110,
    render: (v: FileSupplierRow['grantState']) => <GrantTag state={v} />,
  },
  {
    title: '有效期',
    key: 'valid',
    width: 200,
    render: (_: unknown, r: FileSupplierRow) =>
      r.validFrom || r.validUntil ? `${formatDate(r.validFrom)} 至 ${formatDate(r.validUntil)}` : '—',
  },
  {
    title: '当前可查看',
    dataIndex: 'canAccess',
    width: 100,
    render: (v: boolean) => (v ? <Tag color="green">可查看</Tag> : <Tag>不可查看</Tag>),
  },
  {
    title: '联系人',
    key: 'contacts',
    width: 80,
    render: (_: unknown, r: FileSupplierRow) => (
      <ContactsButton link supplierCode={r.supplierCode} supplierName={r.supplierName} />
    ),
  },
];

export function FileSuppliersDrawer({ file, onClose }: { file: StandardFileRow | null; onClose: () => void }) {
  const query = useFileSuppliers(file?.id);
  return (
    <Drawer
      open={Boolean(file)}
      onClose={onClose}
      size={800}
      title={<ClearOfToasts>可见供应商</ClearOfToasts>}
      destroyOnHidden
    >
      {file && (
        <Typography.Paragraph type="secondary">
          {file.standardCode} {file.name} {file.version}（第{file.versionNo}版）· 物料 {file.materialCode}{' '}
          {file.materialName}
        </Typography.Paragraph>
      )}
      {query.isError ? (
        <ErrorResult error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <Table<FileSupplierRow>
          rowKey="supplierCode"
          size="small"
          columns={columns}
          dataSource={query.data ?? []}
          loading={query.isFetching}
          locale={{ emptyText: EMPTY_TABLE_TEXT }}
          pagination={{ pageSize: 10, hideOnSinglePage: true, showTotal: (t) => `共 ${t} 条` }}
        />
      )}
    </Drawer>
  );
}
