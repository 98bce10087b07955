/**
 * The BOM in two views (树形 / 平铺, searchBomLevelList's `view`). The tree: one page of level-1
 * materials at a time, each with its level-2 components and theirs at level 3, each with its
 * quantity (and, at level 3, per level-1 unit) and sub-tier vendor; 全部展开 / 全部折叠. The flat
 * view: one page of lines — only those the filters keep — sortable. Both filter by material,
 * component, vendor and level, and show the vendor's mobile masked with the eye icon that reveals
 * it through the logged call. The supplier's page passes `actions` (add under, edit, delete); the
 * manufacturer's view none.
 */
import { useState, type Key, type ReactNode } from 'react';
import { Button, Segmented, Space, Tag, Tooltip, Typography } from 'antd';
import { useMd } from '../../components/useScreen.ts';
import type { ColumnsType } from 'antd/es/table';
import {
  BOM_FLAT_SORT_FIELDS,
  BOM_LEVEL_LABELS,
  BOM_VIEWS,
  BOM_VIEW_LABELS,
  bomApi,
  type BomFlatLine,
  type BomLevel2,
  type BomLine,
  type BomMaterialNode,
  type BomView,
  type SortOrder,
} from '@esm/contracts';
import { FilterForm, type FilterField, type Filters } from '../../components/FilterForm.tsx';
import { PagedTable, type FiltersOf } from '../../components/PagedTable.tsx';
import { formatDateTime } from '../../components/labels.tsx';
import { MaskedMobile } from '../phoneLog/index.ts';

export type TreeRow = BomMaterialNode | BomLevel2 | BomLine;
type FlatSort = { sortField?: (typeof BOM_FLAT_SORT_FIELDS)[number]; sortOrder?: SortOrder };
export const isMaterial = (r: TreeRow): r is BomMaterialNode => !('id' in r);
const keyOf = (r: TreeRow) => (isMaterial(r) ? `m:${r.materialCode}` : `l:${r.id}`);

export const TREE_FIELDS: FilterField[] = [
  { kind: 'text', name: 'materialCode', label: '一级物料', placeholder: '一级物料编码或名称', width: 170 },
  { kind: 'text', name: 'component', label: '子件', placeholder: '子件编码或名称', width: 150 },
  { kind: 'text', name: 'vendor', label: '次级供应商', placeholder: '次级供应商名称或信用代码', width: 200 },
  {
    kind: 'select',
    name: 'level',
    label: '层级',
    options: [
      { value: '2', label: '二级' },
      { value: '3', label: '三级' },
    ],
    width: 100,
  },
];

const small = (text: string) => (
  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
    {text}
  </Typography.Text>
);

const LEVEL_COLORS = { 1: 'blue', 2: 'geekblue', 3: 'purple' } as const;
const qty = (n: number) => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(6))));

/**
 * 操作, kept in view at the right while the table scrolls sideways — on a wide screen only: at
 * 600 px a fixed 150 px column would take a quarter of the table and cover the columns beside it.
 */
function actionsColumn<T extends TreeRow | BomFlatLine>(
  actions: (r: TreeRow) => ReactNode,
  wide: boolean,
): ColumnsType<T>[number] {
  return {
    title: '操作',
    key: 'actions',
    width: 150,
    fixed: wide ? 'right' : undefined,
    render: (_: unknown, r: T) => actions(r as TreeRow),
  };
}

function columns(filtered: boolean, wide: boolean, actions?: (r: TreeRow) => ReactNode): ColumnsType<TreeRow> {
  const cols: ColumnsType<TreeRow> = [
    {
      title: '层级 / 编码',
      key: 'code',
      width: 210,
      render: (_: unknown, r) =>
        isMaterial(r) ? (
          <span data-testid={`bom-material-${r.materialCode}`}>
            <Tag color={LEVEL_COLORS[1]}>一级</Tag>
            <Typography.Text strong>{r.materialCode}</Typography.Text>
          </span>
        ) : (
          <span data-testid={`bom-line-${r.componentCode}`}>
            <Tag color={LEVEL_COLORS[r.level as 2 | 3]}>{BOM_LEVEL_LABELS[r.level as 2 | 3]}</Tag>
            <Typography.Text mark={filtered && r.matched}>{r.componentCode}</Typography.Text>
          </span>
        ),
    },
    {
      title: '名称 / 规格',
      key: 'name',
      width: 170,
      render: (_: unknown, r) => {
        const [name, spec] = isMaterial(r) ? [r.materialName, r.materialSpec] : [r.componentName, r.spec];
        return (
          <div style={{ lineHeight: 1.4 }}>
            <div>
              {name}
              {!isMaterial(r) && r.hasDrawing && (
                <Tag color="cyan" style={{ marginLeft: 6 }}>
                  有图纸
                </Tag>
              )}
            </div>
            {spec && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {spec}
              </Typography.Text>
            )}
          </div>
        );
      },
    },
    {
      title: '单位用量',
      key: 'quantity',
      width: 90,
      align: 'right',
      render: (_: unknown, r) => (isMaterial(r) ? '' : `${qty(r.quantity)} ${r.unit}`),
    },
    {
      title: <Tooltip title="每个一级物料所需数量（三级 = 二级用量 × 三级用量）">每一级用量</Tooltip>,
      key: 'extendedQuantity',
      width: 100,
      align: 'right',
      render: (_: unknown, r) =>
        isMaterial(r) ? (
          ''
        ) : r.level === 3 ? (
          <Typography.Text strong>{`${qty(r.extendedQuantity)} ${r.unit}`}</Typography.Text>
        ) : (
          `${qty(r.extendedQuantity)} ${r.unit}`
        ),
    },
    {
      title: '次级供应商 / 联系人',
      key: 'vendor',
      width: 310,
      render: (_: unknown, r) =>
        isMaterial(r) ? (
          <div style={{ lineHeight: 1.4 }}>
            {r.lineCount ? (
              <Typography.Text type="secondary">
                二级 {r.level2Count} · 三级 {r.level3Count} · 次级供应商 {r.vendorCount} 家
              </Typography.Text>
            ) : (
              <Tag color="warning">未维护 BOM</Tag>
            )}
            {!r.supplied && <Tag>已不供货</Tag>}
            {r.updatedBy && <div>{small(`${r.updatedBy} 更新于 ${formatDateTime(r.updatedAt).slice(0, 16)}`)}</div>}
          </div>
        ) : (
          <div style={{ lineHeight: 1.4 }}>
            <div>{r.vendorName}</div>
            <div>{small(`${r.vendorCreditCode}${r.vendorRegion ? ` · ${r.vendorRegion}` : ''}`)}</div>
            <VendorContact line={r} />
          </div>
        ),
    },
  ];
  if (actions) cols.push(actionsColumn(actions, wide));
  return cols;
}

/** The vendor's contact and mobile (masked; the eye reveals it, logged as a BOM_VENDOR look). */
function VendorContact({ line }: { line: BomLine }) {
  if (!line.vendorContact && !line.vendorMobile) return null;
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 6, flexWrap: 'wrap' }}>
      {line.vendorContact && small(line.vendorContact)}
      {line.vendorMobile && (
        <MaskedMobile
          kind="BOM_VENDOR"
          contactId={line.id}
          masked={line.vendorMobile}
          name={line.vendorContact ?? line.vendorName}
        />
      )}
    </div>
  );
}

const codeAndName = (code: string, name: string) => (
  <div style={{ lineHeight: 1.4 }}>
    <div>{code}</div>
    {small(name)}
  </div>
);

/** The flat view's columns: one line a row, the component first, sortable where the server sorts. */
function flatColumns(wide: boolean, actions?: (r: TreeRow) => ReactNode): ColumnsType<BomFlatLine> {
  const cols: ColumnsType<BomFlatLine> = [
    {
      title: '层级',
      dataIndex: 'level',
      sorter: true,
      width: 72,
      render: (level: 2 | 3) => <Tag color={LEVEL_COLORS[level]}>{BOM_LEVEL_LABELS[level]}</Tag>,
    },
    {
      title: '子件编码 / 名称',
      dataIndex: 'componentCode',
      sorter: true,
      width: 190,
      render: (code: string, r) => (
        <div style={{ lineHeight: 1.4 }} data-testid={`bom-flat-${code}`}>
          <div>
            {code}
            {r.hasDrawing && (
              <Tag color="cyan" style={{ marginLeft: 6 }}>
                有图纸
              </Tag>
            )}
          </div>
          {small([r.componentName, r.spec].filter(Boolean).join(' · '))}
        </div>
      ),
    },
    {
      title: '单位用量',
      dataIndex: 'quantity',
      sorter: true,
      width: 96,
      align: 'right',
      render: (n: number, r) => `${qty(n)} ${r.unit}`,
    },
    {
      title: <Tooltip title="每个一级物料所需数量（三级 = 二级用量 × 三级用量）">每一级用量</Tooltip>,
      dataIndex: 'extendedQuantity',
      sorter: true,
      width: 110,
      align: 'right',
      render: (n: number, r) =>
        r.level === 3 ? <Typography.Text strong>{`${qty(n)} ${r.unit}`}</Typography.Text> : `${qty(n)} ${r.unit}`,
    },
    {
      title: '上级',
      dataIndex: 'parentCode',
      width: 130,
      render: (code: string, r) => (r.level === 2 ? small('（一级物料）') : codeAndName(code, r.parentName)),
    },
    {
      title: '一级物料',
      dataIndex: 'materialCode',
      sorter: true,
      width: 130,
      render: (code: string, r) => codeAndName(code, r.materialName),
    },
    {
      title: '次级供应商 / 联系人',
      dataIndex: 'vendorName',
      sorter: true,
      width: 270,
      render: (name: string, r) => (
        <div style={{ lineHeight: 1.4 }}>
          <div>{name}</div>
          <div>{small(`${r.vendorCreditCode}${r.vendorRegion ? ` · ${r.vendorRegion}` : ''}`)}</div>
          <VendorContact line={r} />
        </div>
      ),
    },
    {
      title: '更新',
      dataIndex: 'updatedAt',
      sorter: true,
      width: 140,
      render: (v: string, r) => (
        <div style={{ lineHeight: 1.4 }}>
          {formatDateTime(v).slice(0, 16)}
          <div>{small(r.updatedBy)}</div>
        </div>
      ),
    },
  ];
  if (actions) cols.push(actionsColumn(actions, wide));
  return cols;
}

/** Every key of the rows that have children: 全部展开. */
function parentKeys(rows: readonly TreeRow[]): Key[] {
  const out: Key[] = [];
  const walk = (list: readonly TreeRow[]) => {
    for (const r of list) {
      const kids = (r as { children?: TreeRow[] }).children;
      if (kids?.length) {
        out.push(keyOf(r));
        walk(kids);
      }
    }
  };
  walk(rows);
  return out;
}

export interface BomTreeProps {
  /** The manufacturer's view reads one supplier's BOM. */
  supplierCode?: string;
  actions?: (r: TreeRow) => ReactNode;
  /** Beside the filters (import, template, export …); told the filters in force, with the view (and the flat view's sort). */
  extra?: (filters: Filters & { view: BomView } & FlatSort) => ReactNode;
}

export function BomTree({ supplierCode, actions, extra }: BomTreeProps) {
  const [filters, setFilters] = useState<Filters>({});
  const [view, setView] = useState<BomView>('tree');
  const [sort, setSort] = useState<FlatSort>({});
  const [expanded, setExpanded] = useState<'all' | Key[]>('all');
  const wide = useMd();
  const filtered = Boolean(filters.component || filters.vendor || filters.level);
  const endpoint = (supplierCode ? bomApi.haierTree : bomApi.tree) as typeof bomApi.tree;
  const request = { ...filters, view, ...(supplierCode ? { supplierCode } : {}) } as FiltersOf<typeof bomApi.tree>;
  const toolbar = (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'flex-start' }}>
      <FilterForm
        fields={TREE_FIELDS}
        values={filters}
        onChange={(f) => {
          setFilters(f);
          setExpanded('all');
        }}
        testId="bom-filters"
      />
      <Space wrap style={{ marginBottom: 16 }}>
        <Segmented<BomView>
          aria-label="视图"
          value={view}
          options={BOM_VIEWS.map((v) => ({ value: v, label: BOM_VIEW_LABELS[v] }))}
          onChange={(v) => {
            setView(v);
            setSort({});
          }}
          data-testid="bom-view"
        />
        {view === 'tree' && (
          <>
            <Button onClick={() => setExpanded('all')}>全部展开</Button>
            <Button onClick={() => setExpanded([])}>全部折叠</Button>
          </>
        )}
        {extra?.({ ...filters, view, ...(view === 'flat' ? sort : {}) })}
      </Space>
    </div>
  );
  if (view === 'flat') {
    return (
      <PagedTable<typeof bomApi.tree, BomFlatLine>
        key="flat"
        endpoint={endpoint}
        columns={flatColumns(wide, actions)}
        filters={request}
        rowKey="id"
        size="middle"
        columnSettings={{ table: 'bom-flat', defaultHidden: ['updatedAt'] }}
        // the columns' sort fields are the contract's
        onSortChange={(next) => setSort(next as FlatSort)}
        emptyText={filtered || filters.materialCode ? '没有匹配的子件' : '暂无 BOM 行'}
        toolbar={toolbar}
      />
    );
  }
  return (
    <PagedTable<typeof bomApi.tree, TreeRow>
      key="tree"
      endpoint={endpoint}
      columns={columns(filtered, wide, actions)}
      filters={request}
      rowKey={keyOf}
      size="middle"
      emptyText={filtered || filters.materialCode ? '没有匹配的物料或子件' : '暂无供货物料'}
      expandable={(rows) => ({
        expandedRowKeys: expanded === 'all' ? parentKeys(rows) : expanded,
        onExpandedRowsChange: (keys) => setExpanded([...keys]),
      })}
      toolbar={toolbar}
    />
  );
}
