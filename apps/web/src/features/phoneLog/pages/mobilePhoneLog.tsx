/**
 * 手机号查看日志 (/esm/system/mobilePhoneLog): every reveal of a full mobile number —
 * who looked, whose number (as it was shown, masked), on which page, when and from where — with
 * filters and 导出Excel (a button the permissions govern). The log is append-only.
 */
import { useState } from 'react';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  CONTACT_KINDS,
  CONTACT_KIND_LABELS,
  USER_TYPES,
  USER_TYPE_LABELS,
  isSupplierType,
  phoneLogApi,
  routeByPath,
  type PhoneLogRow,
  type UserType,
} from '@esm/contracts';
import { FilterForm, type FilterField, type Filters } from '../../../components/FilterForm.tsx';
import { PagedTable } from '../../../components/PagedTable.tsx';
import { formatDateTime } from '../../../components/labels.tsx';
import { ExcelButton } from '../../../components/ExcelButton.tsx';
import { supplierSource } from '../../../components/supplierSource.ts';
import { Permitted } from '../../../components/Permitted.tsx';
import { exportPhoneLog } from '../api.ts';

const columns: ColumnsType<PhoneLogRow> = [
  { title: '查看时间', dataIndex: 'createdAt', sorter: true, width: 165, render: formatDateTime },
  {
    title: '查看人',
    dataIndex: 'viewerAccount',
    sorter: true,
    width: 200,
    render: (_: string, r) => (
      <span>
        {r.viewerName} <Typography.Text type="secondary">{r.viewerAccount}</Typography.Text>
      </span>
    ),
  },
  {
    title: '用户类型',
    dataIndex: 'viewerType',
    width: 140,
    render: (t: number) => (
      <Tag color={isSupplierType(t) ? 'orange' : 'blue'}>
        {t} · {USER_TYPE_LABELS[t as UserType]}
      </Tag>
    ),
  },
  { title: '被查看人', dataIndex: 'contactName', sorter: true, width: 120 },
  {
    title: '所属',
    dataIndex: 'contactSupplierName',
    width: 200,
    ellipsis: true,
    render: (v: string | null, r) => v ?? CONTACT_KIND_LABELS[r.contactKind],
  },
  { title: '手机号', dataIndex: 'maskedMobile', width: 120 },
  { title: '页面', dataIndex: 'page', ellipsis: true, render: (p: string) => routeByPath.get(p)?.title ?? p },
  { title: 'IP', dataIndex: 'ip', width: 120 },
];

const fields: FilterField[] = [
  { kind: 'text', name: 'viewer', label: '查看人', placeholder: '账号或姓名', width: 150 },
  {
    kind: 'select',
    name: 'viewerType',
    label: '用户类型',
    width: 170,
    options: USER_TYPES.map((t) => ({ value: t, label: `${t} · ${USER_TYPE_LABELS[t]}` })),
  },
  { kind: 'text', name: 'contact', label: '被查看人', width: 130 },
  {
    kind: 'select',
    name: 'contactKind',
    label: '联系人类型',
    width: 140,
    options: CONTACT_KINDS.map((k) => ({ value: k, label: CONTACT_KIND_LABELS[k] })),
  },
  { kind: 'remote', name: 'supplierCode', label: '供应商', source: supplierSource, width: 180 },
  { kind: 'dateRange', from: 'dateFrom', to: 'dateTo', label: '查看日期' },
];

export default function MobilePhoneLogPage() {
  const [filters, setFilters] = useState<Filters>({});
  const [sort, setSort] = useState<{ sortField?: string; sortOrder?: 'ascend' | 'descend' }>({});
  return (
    <PagedTable
      endpoint={phoneLogApi.page}
      columns={columns}
      filters={filters}
      onSortChange={setSort}
      rowKey="id"
      emptyText="没有查看手机号的记录"
      toolbar={
        <>
          <FilterForm fields={fields} onChange={setFilters} testId="phone-log-filters" />
          <div style={{ margin: '0 0 12px' }}>
            <Permitted endpoint={phoneLogApi.exportExcel}>
              <ExcelButton
                run={() => exportPhoneLog({ ...filters, ...sort } as Parameters<typeof exportPhoneLog>[0])}
              />
            </Permitted>
          </div>
        </>
      }
    />
  );
}
