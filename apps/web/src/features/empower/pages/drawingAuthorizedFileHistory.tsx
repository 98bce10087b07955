/**
 * 授权图纸历史 (/esm/drawingAuthorization/drawingAuthorizedFileHistory): grants that have ended —
 * expired or revoked (when, by whom, why) — and those that will end within the configured days,
 * each saying whether a later grant already renews it. Latest end first.
 */
import { GRANT_SOURCES, GRANT_SOURCE_LABELS, OVERDUE_KINDS, OVERDUE_KIND_LABELS, empowerApi } from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import type { FilterField } from '../../../components/FilterForm.tsx';
import { supplierSource } from '../../../components/supplierSource.ts';
import { grantColumns } from '../grantColumns.tsx';

const FIELDS: FilterField[] = [
  {
    kind: 'select',
    name: 'kind',
    label: '类型',
    width: 120,
    options: OVERDUE_KINDS.map((k) => ({ value: k, label: OVERDUE_KIND_LABELS[k] })),
  },
  { kind: 'remote', name: 'supplierCode', label: '供应商', source: supplierSource, width: 180 },
  { kind: 'text', name: 'materialCode', label: '物料编码', width: 130 },
  {
    kind: 'select',
    name: 'source',
    label: '来源',
    width: 110,
    options: GRANT_SOURCES.map((s) => ({ value: s, label: GRANT_SOURCE_LABELS[s] })),
  },
  {
    kind: 'dateRange',
    from: 'dateFrom',
    to: 'dateTo',
    label: '结束日期',
    placeholder: ['结束开始日期', '结束截止日期'],
  },
];

const COLUMNS = grantColumns({ withRevocation: true });

export default function DrawingAuthorizedFileHistoryPage() {
  return (
    <ListPage
      endpoint={empowerApi.overdue}
      columns={COLUMNS}
      fields={FIELDS}
      rowKey="id"
      filterTestId="overdue-filters"
      emptyText="没有已过期、已撤销或即将到期的授权"
    />
  );
}
