/**
 * The sub-tier vendors of a supplier's BOM, one row per unified social credit code: contact
 * (mobile masked, with the eye that reveals it through the phone-view log), how many lines, components and level-1 materials, and which. Filters by
 * vendor, region and component. The supplier's page adds the export.
 */
import { useState, type ReactNode } from 'react';
import { Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { bomApi, type BomVendorRow } from '@esm/contracts';
import { FilterForm, type FilterField, type Filters } from '../../components/FilterForm.tsx';
import { PagedTable, type FiltersOf } from '../../components/PagedTable.tsx';
import { MaskedMobile } from '../phoneLog/index.ts';

const FIELDS: FilterField[] = [
  { kind: 'text', name: 'keyword', label: '次级供应商', placeholder: '名称或统一社会信用代码', width: 210 },
  { kind: 'text', name: 'region', label: '地区', placeholder: '所在地区', width: 130 },
  { kind: 'text', name: 'component', label: '子件', placeholder: '所供子件编码或名称', width: 170 },
];

const count = (title: string, key: keyof BomVendorRow, width = 84) => ({
  title,
  dataIndex: key,
  sorter: true,
  width,
  align: 'right' as const,
});
const SHOWN = 4;

const COLUMNS: ColumnsType<BomVendorRow> = [
  {
    title: '次级供应商',
    dataIndex: 'name',
    sorter: true,
    width: 230,
    render: (name: string, r) => (
      <div style={{ lineHeight: 1.4 }} data-testid={`bom-vendor-${r.creditCode}`}>
        <div>{name}</div>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {r.creditCode}
        </Typography.Text>
      </div>
    ),
  },
  { title: '所在地区', dataIndex: 'region', width: 100, render: (v: string | null) => v ?? '—' },
  {
    title: '联系人',
    key: 'contact',
    width: 170,
    // the mobile masked; the eye reveals it (logged) through the line it was read from
    render: (_: unknown, r) => (
      <div style={{ lineHeight: 1.4 }}>
        <div>{r.contact ?? '—'}</div>
        {r.mobile && (
          <MaskedMobile kind="BOM_VENDOR" contactId={r.lineId} masked={r.mobile} name={r.contact ?? r.name} />
        )}
      </div>
    ),
  },
  count('BOM行数', 'lineCount'),
  count('子件数', 'componentCount', 76),
  count('涉及物料', 'materialCount'),
  {
    title: '所供子件',
    key: 'components',
    width: 240,
    render: (_: unknown, r) => (
      <div>
        {r.components.slice(0, SHOWN).map((c) => (
          <Tooltip
            key={`${c.code}-${c.materialCode}`}
            title={`${c.level === 2 ? '二级' : '三级'}子件，用于一级物料 ${c.materialCode}`}
          >
            <Tag style={{ marginBottom: 4 }}>
              {c.code} {c.name}
            </Tag>
          </Tooltip>
        ))}
        {r.components.length > SHOWN && <Typography.Text type="secondary">等 {r.componentCount} 个</Typography.Text>}
      </div>
    ),
  },
  {
    title: '涉及一级物料',
    key: 'materials',
    width: 150,
    render: (_: unknown, r) => (
      // wraps to two lines (the codes in its tooltip) instead of being cut after a few names
      <div className="esm-cell-wrap" title={r.materials.map((m) => `${m.code} ${m.name}`).join('、')}>
        {r.materials.map((m) => m.name).join('、')}
      </div>
    ),
  },
];

export function VendorTable({
  supplierCode,
  extra,
}: {
  supplierCode?: string;
  extra?: (filters: Filters) => ReactNode;
}) {
  const [filters, setFilters] = useState<Filters>({});
  return (
    <PagedTable<typeof bomApi.vendors, BomVendorRow>
      endpoint={(supplierCode ? bomApi.haierVendors : bomApi.vendors) as typeof bomApi.vendors}
      columns={COLUMNS}
      filters={{ ...filters, ...(supplierCode ? { supplierCode } : {}) } as FiltersOf<typeof bomApi.vendors>}
      rowKey="creditCode"
      emptyText={
        Object.values(filters).some(Boolean)
          ? '没有匹配的次级供应商'
          : '暂无次级供应商：在二三级BOM中维护子件及其供应商后显示'
      }
      toolbar={
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'flex-start' }}>
          <FilterForm fields={FIELDS} onChange={setFilters} testId="bom-vendor-filters" />
          {extra?.(filters)}
        </div>
      }
    />
  );
}
