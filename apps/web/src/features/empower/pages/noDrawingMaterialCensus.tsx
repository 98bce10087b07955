/**
 * 供应商统计 (/esm/drawingAuthorization/noDrawingMaterialCensus): per supplier, the materials it
 * supplies and how many of them have a valid grant, one expiring soon, an expired one, none; its
 * applications awaiting a decision; the drawings it may open now. Sortable by each figure;
 * exported with the same filter and order. A supplier's 未授权物料 opens its materials without a
 * valid grant and their drawings (noDrawingAndArchivesInformation).
 */
import { useState } from 'react';
import { Button, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { empowerApi, type CensusRow, type SortOrder } from '@esm/contracts';
import { FilterForm, type FilterField, type Filters } from '../../../components/FilterForm.tsx';
import { PagedTable } from '../../../components/PagedTable.tsx';
import { exportCensus } from '../api.ts';
import { Permitted } from '../../../components/Permitted.tsx';
import { ExcelButton } from '../../../components/ExcelButton.tsx';
import { CodeName } from '../labels.tsx';
import { unauthorizedLink } from '../links.ts';
import { EvidenceDialogButton } from '../../audit/index.ts';

const FIELDS: FilterField[] = [
  { kind: 'text', name: 'keyword', label: '供应商', placeholder: '供应商编码或名称', width: 200 },
];

const count = (title: string, key: keyof CensusRow, width = 92, warn?: 'warning' | 'danger') => ({
  title,
  dataIndex: key,
  sorter: true,
  width,
  align: 'right' as const,
  render: (n: number) => (warn && n > 0 ? <Typography.Text type={warn}>{n}</Typography.Text> : n),
});

const COLUMNS: ColumnsType<CensusRow> = [
  {
    title: '供应商',
    dataIndex: 'supplierCode',
    sorter: true,
    width: 230,
    render: (code: string, r) => <CodeName code={code} name={r.supplierName} width={220} />,
  },
  count('供货物料', 'supplied'),
  count('有效授权', 'valid'),
  count('即将到期', 'expiring', 92, 'warning'),
  count('已过期', 'expired', 80, 'danger'),
  {
    ...count('未授权物料', 'unauthorized', 104),
    render: (n: number, r: CensusRow) => (n > 0 ? <Link to={unauthorizedLink(r.supplierCode)}>{n}</Link> : 0),
  },
  count('待审批申请', 'pending', 104),
  count('可查看图纸', 'viewable', 104),
  {
    title: '操作',
    key: 'actions',
    width: 190,
    render: (_: unknown, r) => (
      <span style={{ whiteSpace: 'nowrap' }}>
        <Link to={unauthorizedLink(r.supplierCode)}>
          <Button type="link" size="small">
            未授权图纸
          </Button>
        </Link>
        <EvidenceDialogButton supplierCode={r.supplierCode} supplierName={r.supplierName} />
      </span>
    ),
  },
];

export default function NoDrawingMaterialCensusPage() {
  const [filters, setFilters] = useState<Filters>({});
  const [sort, setSort] = useState<{ sortField?: string; sortOrder?: SortOrder }>({});
  return (
    <PagedTable
      endpoint={empowerApi.census}
      columns={COLUMNS}
      filters={filters}
      rowKey="supplierCode"
      onSortChange={setSort}
      emptyText="没有匹配的供应商"
      toolbar={
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'flex-start' }}>
          <FilterForm fields={FIELDS} onChange={setFilters} testId="census-filters" />
          <Permitted endpoint={empowerApi.censusExcel}>
            <ExcelButton run={() => exportCensus({ ...filters, ...sort } as Parameters<typeof exportCensus>[0])} />
          </Permitted>
        </div>
      }
    />
  );
}
