/**
 * The internal archive browser (档案信息 and its tree page 图纸档案信息): product line → material
 * tree on the left, the selected node's files on the right with filters, server sort, upload,
 * export and per-row actions. `?standardCode=` / `?materialCode=` preset the filters (spec §2:
 * standardCode is carried across redirects).
 */
import { useMemo, useState } from 'react';
import { Button, Form, Space } from 'antd';
import { CloudUploadOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router-dom';
import type { SortOrder, StandardFileRow } from '@esm/contracts';
import { STANDARD_FILE_PAGER, fetchStandardFilePager, treeLoaders, useRefreshArchiveLists } from '../../api/archives.ts';
import { MaterialTree, type TreeSelection } from '../../components/MaterialTree.tsx';
import { PagedTable } from '../../components/PagedTable.tsx';
import { ExportButton } from './archive/ExportButton.tsx';
import { FileFilterBar, toFileFilters, type FileFilterValues, type FileFilters } from './archive/FileFilterBar.tsx';
import { columnsWidth, fileColumns } from './archive/fileColumns.tsx';
import { UploadModal } from './archive/UploadModal.tsx';
import { useFileActions } from './archive/useFileActions.tsx';

const TREE_WIDTH = 260;

export function ArchiveBrowser() {
  const [params] = useSearchParams();
  const initial = useMemo<FileFilterValues>(
    () => ({ standardCode: params.get('standardCode') ?? undefined, materialCode: params.get('materialCode') ?? undefined }),
    // only the first visit's query presets the filters
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const [form] = Form.useForm<FileFilterValues>();
  const [bar, setBar] = useState<FileFilters>(() => toFileFilters(initial));
  const [tree, setTree] = useState<TreeSelection>(() => (initial.materialCode ? { materialCode: initial.materialCode } : {}));
  const [uploading, setUploading] = useState(false);
  const refresh = useRefreshArchiveLists();
  const actions = useFileActions({ onChanged: refresh });

  // A material (typed or picked) wins over the product line: a typed code may be of another line.
  const filters = useMemo(() => ({ ...bar, productLineCode: bar.materialCode ? undefined : tree.productLineCode }), [bar, tree.productLineCode]);
  const columns = fileColumns({ actions: actions.render });
  // the export follows the table's order as well as its filters
  const [sort, setSort] = useState<{ sortField?: string; sortOrder?: SortOrder }>({});

  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
      <aside style={{ width: TREE_WIDTH, flex: 'none' }}>
        <MaterialTree
          {...treeLoaders}
          selection={tree}
          onSelect={(s) => {
            setTree(s);
            form.setFieldValue('materialCode', s.materialCode);
            setBar((b) => ({ ...b, materialCode: s.materialCode }));
          }}
        />
      </aside>
      <section style={{ flex: 1, minWidth: 0 }}>
        <PagedTable<StandardFileRow, typeof filters>
          queryKey={STANDARD_FILE_PAGER}
          fetcher={fetchStandardFilePager}
          columns={columns}
          filters={filters}
          onSortChange={setSort}
          rowKey="id"
          scrollX={columnsWidth(columns)}
          toolbar={
            <Space direction="vertical" size={12} style={{ width: '100%', marginBottom: 16 }}>
              <FileFilterBar
                form={form}
                initialValues={initial}
                onSearch={(f) => {
                  setBar(f);
                  setTree((t) => (f.materialCode ? { materialCode: f.materialCode } : { productLineCode: t.productLineCode }));
                }}
                onReset={() => {
                  setBar({});
                  setTree({});
                }}
              />
              <Space>
                <Button type="primary" icon={<CloudUploadOutlined />} onClick={() => setUploading(true)}>
                  上传文件
                </Button>
                <ExportButton filters={{ ...filters, ...sort }} />
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
