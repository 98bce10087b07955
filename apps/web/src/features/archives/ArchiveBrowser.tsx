/**
 * The internal archive browser (档案信息 and its tree page 图纸档案信息): product line → material
 * tree on the left, the selected node's files on the right with filters, server sort, upload,
 * export and per-row actions. `?standardCode=` / `?materialCode=` preset the filters (standardCode is carried across redirects).
 */
import { useMemo, useState } from 'react';
import { Button, Space, theme } from 'antd';
import { Drawer } from '../../components/Drawer.ts';
import { useMd } from '../../components/useScreen.ts';
import { ApartmentOutlined, CloudUploadOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { archivesApi, exportApi, type SortOrder } from '@esm/contracts';
import { Permitted } from '../../components/Permitted.tsx';
import { ahead } from '../../api/ahead.ts';
import type { FetchAhead } from '../pages.ts';
import { treeLoaders, useRefreshArchiveLists } from './api.ts';
import { MaterialTree, type TreeSelection } from './MaterialTree.tsx';
import { FilterForm, type Filters } from '../../components/FilterForm.tsx';
import { PagedTable, fetchPagedTableAhead } from '../../components/PagedTable.tsx';
import { ExportButton } from '../export/index.ts';
import { fileFilterFields } from './fileFilters.ts';
import { ARCHIVE_DEFAULT_HIDDEN, fileColumns } from './fileColumns.tsx';
import { useFileActions } from './useFileActions.tsx';
import { lazyDialog } from '../../lib/lazyLoaded.ts';

// the upload form (antd's Upload, a date picker) only after 上传 is clicked
const UploadModal = lazyDialog(
  () => import('./UploadModal.tsx'),
  (m) => m.UploadModal,
  (p) => p.open,
);

const TREE_WIDTH = 260;
const FIELDS = fileFilterFields(true);

/** The bar's first values: the first visit's `?standardCode=` / `?materialCode=`. */
const presetBar = (params: URLSearchParams): Filters => ({
  standardCode: params.get('standardCode') ?? undefined,
  materialCode: params.get('materialCode') ?? undefined,
});

/** The table's filters. A material (typed or picked) wins over the product line: a typed code may be of another line. */
const tableFilters = (bar: Filters, productLineCode: string | undefined) => ({
  ...bar,
  productLineCode: bar.materialCode ? undefined : productLineCode,
});

/** The browser's first calls under its first render's keys, for a landing page to fetch ahead (api/ahead.ts). */
export const fetchArchiveBrowserAhead: FetchAhead = (queryClient, target) => {
  fetchPagedTableAhead(queryClient, archivesApi.files, tableFilters(presetBar(target.searchParams), undefined), [
    archivesApi.upload,
    exportApi.drawingExcel,
    archivesApi.obsolete,
  ]);
  ahead(queryClient, treeLoaders.productLines);
};

export function ArchiveBrowser() {
  const { token } = theme.useToken();
  const [params] = useSearchParams();
  // only the first visit's query presets the filters
  const [bar, setBar] = useState<Filters>(() => presetBar(params));
  const [initial] = useState(bar);
  const [tree, setTree] = useState<TreeSelection>(() =>
    initial.materialCode ? { materialCode: String(initial.materialCode) } : {},
  );
  const [uploading, setUploading] = useState(false);
  const refresh = useRefreshArchiveLists();
  const actions = useFileActions({ onChanged: refresh });

  const filters = useMemo(() => tableFilters(bar, tree.productLineCode), [bar, tree.productLineCode]);
  const columns = fileColumns({ actions: actions.render });
  // the export follows the table's order as well as its filters
  const [sort, setSort] = useState<{ sortField?: string; sortOrder?: SortOrder }>({});

  // narrow screens (< md): the data first, the tree in a drawer
  const wide = useMd();
  const [treeOpen, setTreeOpen] = useState(false);
  const treePanel = (
    <MaterialTree
      {...treeLoaders}
      selection={tree}
      onSelect={(s) => {
        setTree(s);
        setBar((b) => ({ ...b, materialCode: s.materialCode }));
        setTreeOpen(false);
      }}
    />
  );

  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
      {wide ? (
        <aside style={{ width: TREE_WIDTH, flex: 'none' }}>{treePanel}</aside>
      ) : (
        <Drawer
          open={treeOpen}
          onClose={() => setTreeOpen(false)}
          placement="left"
          title="产品线 / 物料"
          size={Math.min(TREE_WIDTH + 48, window.innerWidth - 40)}
          data-testid="tree-drawer"
        >
          {treePanel}
        </Drawer>
      )}
      <section style={{ flex: 1, minWidth: 0 }}>
        <PagedTable
          endpoint={archivesApi.files}
          columns={columns}
          filters={filters}
          onSortChange={setSort}
          rowKey="id"
          columnSettings={{ table: 'archives', defaultHidden: ARCHIVE_DEFAULT_HIDDEN }}
          toolbar={
            <Space orientation="vertical" size={12} style={{ width: '100%', marginBottom: 16 }}>
              <FilterForm
                fields={FIELDS}
                values={bar}
                testId="file-filters"
                onChange={(f) => {
                  setBar(f);
                  if (Object.keys(f).length === 0)
                    setTree({}); // 重置
                  else
                    setTree((t) =>
                      f.materialCode
                        ? { materialCode: String(f.materialCode) }
                        : { productLineCode: t.productLineCode },
                    );
                }}
              />
              {/* a button's height before the permitted buttons are known: the table stays where it is when they appear */}
              <Space wrap style={{ display: 'flex', minHeight: token.controlHeight }}>
                {!wide && (
                  <Button icon={<ApartmentOutlined aria-hidden />} onClick={() => setTreeOpen(true)}>
                    物料树{tree.materialCode ? `：${tree.materialCode}` : ''}
                  </Button>
                )}
                <Permitted endpoint={archivesApi.upload}>
                  <Button type="primary" icon={<CloudUploadOutlined />} onClick={() => setUploading(true)}>
                    上传文件
                  </Button>
                </Permitted>
                <Permitted endpoint={exportApi.drawingExcel}>
                  <ExportButton filters={{ ...filters, ...sort }} />
                </Permitted>
              </Space>
            </Space>
          }
        />
      </section>
      {actions.dialogs}
      <UploadModal
        open={uploading}
        materialCode={tree.materialCode}
        onClose={() => setUploading(false)}
        onUploaded={() => {
          setUploading(false);
          refresh();
        }}
      />
    </div>
  );
}
