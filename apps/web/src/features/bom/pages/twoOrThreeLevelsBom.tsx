/**
 * 二三级BOM (/esm/supplier/twoOrThreeLevelsBom): the supplier's own BOM as a tree by level-1
 * material or flat, line by line (searchBomLevelList, 树形 / 平铺) — add a component under a material or a level-2 line, edit,
 * delete (with its level-3 lines, after a confirmation), import from the template, export (the
 * view on screen: its filters and, flat, its order).
 */
import { useState } from 'react';
import { App, Button, Popconfirm, Space } from 'antd';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { bomApi } from '@esm/contracts';
import { ExcelButton } from '../../../components/ExcelButton.tsx';
import { Permitted } from '../../../components/Permitted.tsx';
import { serverErrorText } from '../../../components/serverErrors.ts';
import { deleteLine, downloadTemplate, exportLines, useRefreshBom } from '../api.ts';
import { BomTree, isMaterial, type TreeRow } from '../BomTree.tsx';
import { ImportDialog } from '../ImportDialog.tsx';
import { LineForm, type LineTarget } from '../LineForm.tsx';

export default function TwoOrThreeLevelsBomPage() {
  const { message } = App.useApp();
  const refresh = useRefreshBom();
  const [target, setTarget] = useState<LineTarget | null>(null);
  const [importing, setImporting] = useState(false);

  const remove = async (id: number) => {
    try {
      const res = await deleteLine(id);
      message.success(res.message);
    } catch (e) {
      message.error(serverErrorText(e, '删除失败'));
    }
    await refresh();
  };

  const actions = (r: TreeRow) => {
    if (isMaterial(r)) {
      return (
        <Button
          type="link"
          size="small"
          icon={<PlusOutlined />}
          onClick={() => setTarget({ kind: 'add', materialCode: r.materialCode })}
          disabled={!r.supplied}
        >
          添加二级子件
        </Button>
      );
    }
    const kids = (r as { children?: unknown[] }).children?.length ?? 0;
    return (
      <Space size={0} wrap>
        {r.level === 2 && (
          <Button
            type="link"
            size="small"
            onClick={() => setTarget({ kind: 'add', materialCode: r.materialCode, parent: r })}
          >
            加子件
          </Button>
        )}
        <Button type="link" size="small" onClick={() => setTarget({ kind: 'edit', line: r })}>
          编辑
        </Button>
        <Popconfirm
          title={`删除子件 ${r.componentCode}？`}
          // the flat view's rows carry no children: say it in general
          description={
            r.level === 2
              ? kids
                ? `它的 ${kids} 个三级子件将一并删除`
                : 'parentName' in r
                  ? '其下的三级子件（如有）将一并删除'
                  : undefined
              : undefined
          }
          okText="删除"
          okButtonProps={{ danger: true }}
          onConfirm={() => remove(r.id)}
        >
          <Button type="link" size="small" danger>
            删除
          </Button>
        </Popconfirm>
      </Space>
    );
  };

  return (
    <>
      <BomTree
        actions={actions}
        extra={(filters) => (
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget({ kind: 'add' })}>
              新增子件
            </Button>
            <Permitted endpoint={bomApi.import}>
              <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
                导入
              </Button>
            </Permitted>
            <ExcelButton label="下载模板" done="已下载" run={downloadTemplate} />
            <ExcelButton run={() => exportLines(filters)} />
          </>
        )}
      />
      <LineForm
        target={target}
        onClose={() => setTarget(null)}
        onSaved={async () => {
          setTarget(null);
          await refresh();
        }}
      />
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        onImported={async () => {
          setImporting(false);
          await refresh();
        }}
      />
    </>
  );
}
