/**
 * 供应商BOM追溯 (/esm/drawingManagement/supplierBomTrace — not in the legacy portal):
 * the drawing admins' read-only view of the suppliers' 2–3 level BOMs. 供应商BOM lists each
 * supplier with how much of what it supplies has a BOM; 查看 opens one supplier's tree and its
 * sub-tier vendors (?supplierCode=, so other pages can link here). 反查 finds which first-tier
 * suppliers and materials depend on a sub-tier vendor or a component (where-used).
 */
import { useState } from 'react';
import { Button, Empty, Space, Tabs, Tag, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { BOM_LEVEL_LABELS, bomApi, type BomSupplierRow, type WhereUsedRow } from '@esm/contracts';
import { call } from '../../../api/client.ts';
import { FilterForm, type FilterField, type Filters } from '../../../components/FilterForm.tsx';
import { PagedTable } from '../../../components/PagedTable.tsx';
import { RemoteSelect } from '../../../components/RemoteSelect.tsx';
import { formatDateTime } from '../../../components/labels.tsx';
import { supplierSource } from '../../../components/supplierSource.ts';
import { BomTree } from '../BomTree.tsx';
import { VendorTable } from '../VendorTable.tsx';

const small = (text: string) => (
  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
    {text}
  </Typography.Text>
);
const codeName = (code: string, name: string) => (
  <div style={{ lineHeight: 1.4 }}>
    <div>{code}</div>
    {small(name)}
  </div>
);

// ---- the suppliers' overview -----------------------------------------------------------------------

function SupplierList({ open }: { open: (code: string) => void }) {
  const [filters, setFilters] = useState<Filters>({});
  const columns: ColumnsType<BomSupplierRow> = [
    {
      title: '供应商',
      dataIndex: 'supplierCode',
      sorter: true,
      width: 280,
      render: (code: string, r) => codeName(code, r.supplierName),
    },
    { title: '供货物料', dataIndex: 'supplied', width: 90, align: 'right' },
    {
      title: '已维护BOM',
      dataIndex: 'withBom',
      width: 110,
      align: 'right',
      render: (n: number, r) =>
        n < r.supplied ? (
          <Typography.Text type={n ? 'warning' : 'danger'}>{`${n} / ${r.supplied}`}</Typography.Text>
        ) : (
          `${n} / ${r.supplied}`
        ),
    },
    { title: 'BOM行数', dataIndex: 'lineCount', sorter: true, width: 100, align: 'right' },
    { title: '次级供应商', dataIndex: 'vendorCount', sorter: true, width: 110, align: 'right' },
    {
      title: '最近更新',
      dataIndex: 'updatedAt',
      sorter: true,
      width: 170,
      render: (v: string | null) => (v ? formatDateTime(v) : '—'),
    },
    {
      title: '操作',
      key: 'actions',
      width: 110,
      render: (_: unknown, r) => (
        <Button type="link" size="small" onClick={() => open(r.supplierCode)}>
          查看BOM
        </Button>
      ),
    },
  ];
  return (
    <PagedTable
      endpoint={bomApi.suppliers}
      columns={columns}
      filters={filters}
      rowKey="supplierCode"
      emptyText="没有匹配的供应商"
      toolbar={
        <FilterForm
          fields={[{ kind: 'text', name: 'keyword', label: '供应商', placeholder: '供应商编码或名称', width: 220 }]}
          onChange={setFilters}
          testId="bom-supplier-filters"
        />
      }
    />
  );
}

function SupplierBom({ code, back, pick }: { code: string; back: () => void; pick: (code: string) => void }) {
  const name = useQuery({
    queryKey: [bomApi.suppliers.path, 'name', code],
    queryFn: async () =>
      (await call(bomApi.suppliers, { keyword: code, results: 20 })).data.find((s) => s.supplierCode === code)
        ?.supplierName ?? null,
  });
  return (
    <div>
      <Space wrap style={{ marginBottom: 12 }}>
        <Button icon={<ArrowLeftOutlined />} onClick={back}>
          供应商列表
        </Button>
        <Typography.Title level={5} style={{ margin: 0 }} data-testid="bom-trace-supplier">
          {code} {name.data ?? ''}
        </Typography.Title>
        <Tag>只读</Tag>
        <RemoteSelect
          source={supplierSource}
          label="切换供应商"
          value={code}
          onChange={(v) => v && pick(v)}
          width={260}
        />
      </Space>
      <Tabs
        items={[
          { key: 'bom', label: '二三级BOM', children: <BomTree supplierCode={code} /> },
          { key: 'vendors', label: '次级供应商', children: <VendorTable supplierCode={code} /> },
        ]}
      />
    </div>
  );
}

// ---- where-used --------------------------------------------------------------------------------------

const WHERE_FIELDS: FilterField[] = [
  { kind: 'text', name: 'vendor', label: '次级供应商', placeholder: '次级供应商名称或统一社会信用代码', width: 260 },
  { kind: 'text', name: 'component', label: '子件', placeholder: '子件编码或名称', width: 180 },
];

function WhereUsed({ open }: { open: (code: string) => void }) {
  const [filters, setFilters] = useState<Filters>({});
  const columns: ColumnsType<WhereUsedRow> = [
    {
      title: '一级供应商',
      dataIndex: 'supplierCode',
      sorter: true,
      width: 230,
      render: (code: string, r) => (
        <div style={{ lineHeight: 1.4 }}>
          <Button type="link" size="small" style={{ padding: 0 }} onClick={() => open(code)}>
            {code}
          </Button>
          <div>{small(r.supplierName)}</div>
        </div>
      ),
    },
    {
      title: '一级物料',
      dataIndex: 'materialCode',
      sorter: true,
      width: 150,
      render: (code: string, r) => codeName(code, r.materialName),
    },
    {
      title: '子件',
      dataIndex: 'componentCode',
      sorter: true,
      width: 200,
      render: (code: string, r) => (
        <div style={{ lineHeight: 1.4 }}>
          <div>
            <Tag color={r.level === 2 ? 'geekblue' : 'purple'}>{BOM_LEVEL_LABELS[r.level as 2 | 3]}</Tag>
            {code}
          </div>
          {small(`${r.componentName}${r.level === 3 ? ` · 上级 ${r.parentCode}` : ''}`)}
        </div>
      ),
    },
    {
      title: '每一级用量',
      key: 'extendedQuantity',
      width: 110,
      align: 'right',
      render: (_: unknown, r) => `${r.extendedQuantity} ${r.unit}`,
    },
    {
      title: '次级供应商',
      dataIndex: 'vendorName',
      sorter: true,
      width: 260,
      render: (name: string, r) => (
        <div style={{ lineHeight: 1.4 }}>
          <div>{name}</div>
          {small(`${r.vendorCreditCode}${r.vendorRegion ? ` · ${r.vendorRegion}` : ''}`)}
        </div>
      ),
    },
  ];
  const asked = Boolean(filters.vendor || filters.component);
  const form = <FilterForm fields={WHERE_FIELDS} onChange={setFilters} testId="bom-where-filters" />;
  if (!asked) {
    return (
      <div>
        {form}
        <Empty description="输入次级供应商或子件，查找用到它的一级供应商和物料" />
      </div>
    );
  }
  return (
    <PagedTable
      endpoint={bomApi.whereUsed}
      columns={columns}
      filters={filters}
      rowKey="id"
      emptyText="没有供应商的 BOM 用到它"
      toolbar={form}
    />
  );
}

// ---- the page ----------------------------------------------------------------------------------------------

export default function SupplierBomTracePage() {
  const [params, setParams] = useSearchParams();
  const supplierCode = params.get('supplierCode')?.trim().slice(0, 32) || undefined;
  const tab = params.get('tab') === 'whereUsed' ? 'whereUsed' : 'suppliers';
  const go = (next: Record<string, string | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) if (v) p.set(k, v);
    setParams(p);
  };
  const open = (code: string) => go({ supplierCode: code });
  return (
    <Tabs
      activeKey={tab}
      onChange={(k) =>
        go({
          tab: k === 'whereUsed' ? 'whereUsed' : undefined,
          supplierCode: k === 'whereUsed' ? undefined : supplierCode,
        })
      }
      items={[
        {
          key: 'suppliers',
          label: '供应商BOM',
          children: supplierCode ? (
            <SupplierBom code={supplierCode} back={() => go({})} pick={open} />
          ) : (
            <SupplierList open={open} />
          ),
        },
        { key: 'whereUsed', label: '反查（次级供应商 / 子件）', children: <WhereUsed open={open} /> },
      ]}
    />
  );
}
