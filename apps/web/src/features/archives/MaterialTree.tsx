/**
 * The archive tree of the legacy portal (product line → material), shared by the internal archive pages and
 * the supplier's tree page; each passes the loaders of its own side. Materials load lazily, 100 at
 * a time, with a "加载更多" node; a keyword filters materials on the server.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { useQuery, type QueryKey } from '@tanstack/react-query';
import { Empty, Input, Spin, Tree } from 'antd';
import type { DataNode, EventDataNode } from 'antd/es/tree';
import type { MaterialRow, ProductLine } from '@esm/contracts';
import { unlessFetchedAhead } from '../../api/ahead.ts';

export interface TreeSelection {
  productLineCode?: string;
  materialCode?: string;
}

export interface MaterialTreeProps {
  /** The product lines (a query: a landing page may have fetched them ahead). */
  productLines: {
    queryKey: QueryKey;
    queryFn: (context: { meta?: Record<string, unknown> }) => Promise<ProductLine[]>;
  };
  loadMaterials: (q: {
    productLineCode: string;
    page: number;
    keyword?: string;
  }) => Promise<{ rows: MaterialRow[]; total: number }>;
  selection: TreeSelection;
  onSelect: (s: TreeSelection) => void;
  height?: number;
}

const PAGE = 100;
type Node = DataNode & {
  productLineCode?: string;
  materialCode?: string;
  more?: { productLineCode: string; page: number };
};

export function MaterialTree({ productLines, loadMaterials, selection, onSelect, height = 560 }: MaterialTreeProps) {
  const lines = useQuery({ ...productLines, refetchOnMount: unlessFetchedAhead });
  const [keyword, setKeyword] = useState('');
  // each product line's materials loaded so far (reset by a new keyword: the tree loads them again)
  const [children, setChildren] = useState<Record<string, Node[]>>({});
  const [expanded, setExpanded] = useState<React.Key[]>([]);
  const [loadedKeys, setLoadedKeys] = useState<React.Key[]>([]);

  const nodes = useMemo<Node[] | null>(() => {
    if (lines.isError) return [];
    return (
      lines.data?.map((l) => ({
        key: `pl:${l.code}`,
        title: `${l.name}（${l.materialCount}）`,
        productLineCode: l.code,
        isLeaf: l.materialCount === 0,
        children: children[l.code],
      })) ?? null
    );
  }, [lines.data, lines.isError, children]);

  // Each keyword gets a tree of its own (`round`, the Tree's key). A load still on its way when
  // the keyword changes would otherwise add the old keyword's materials to the new tree, and
  // antd's Tree would not load that line again while its old load was pending.
  const [round, setRound] = useState(0);
  const current = useRef(0);
  const search = (value: string) => {
    current.current += 1;
    setRound(current.current);
    setKeyword(value.trim());
    setChildren({});
    setLoadedKeys([]);
  };

  const appendMaterials = useCallback(
    async (productLineCode: string, page: number) => {
      const asked = current.current;
      const { rows, total } = await loadMaterials({ productLineCode, page, keyword: keyword || undefined });
      if (asked !== current.current) return;
      const more: Node[] = rows.map((m) => ({
        key: `m:${m.code}`,
        title: `${m.code} ${m.name}`,
        isLeaf: true,
        productLineCode,
        materialCode: m.code,
      }));
      if (page * PAGE < total)
        more.push({
          key: `more:${productLineCode}:${page + 1}`,
          title: '加载更多…',
          isLeaf: true,
          more: { productLineCode, page: page + 1 },
        });
      setChildren((prev) => {
        const had = prev[productLineCode] ?? [];
        // a page lands once: only where the line is still empty (page 1) or still ends with this
        // page's 加载更多 node (a second click on it while the first load was on its way)
        const expected = page === 1 ? had.length === 0 : had.some((c) => c.more?.page === page);
        return expected ? { ...prev, [productLineCode]: [...had.filter((c) => !c.more), ...more] } : prev;
      });
    },
    [loadMaterials, keyword],
  );

  const onLoad = async (node: EventDataNode<Node>) => {
    if (node.productLineCode && !node.materialCode && !node.more) await appendMaterials(node.productLineCode, 1);
  };

  const selectedKey = selection.materialCode
    ? `m:${selection.materialCode}`
    : selection.productLineCode
      ? `pl:${selection.productLineCode}`
      : undefined;

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }} data-testid="material-tree">
      <Input.Search allowClear placeholder="物料编码或名称" onSearch={search} aria-label="搜索物料" />
      {nodes === null ? (
        <Spin />
      ) : nodes.length === 0 ? (
        <Empty description="暂无可查看的物料" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Tree<Node>
          key={round}
          treeData={nodes}
          height={height}
          loadData={onLoad}
          loadedKeys={loadedKeys}
          onLoad={(keys) => round === current.current && setLoadedKeys(keys)}
          expandedKeys={expanded}
          onExpand={setExpanded}
          selectedKeys={selectedKey ? [selectedKey] : []}
          onSelect={(_keys, { node }) => {
            // a failed load has been toasted by the call; its 加载更多 node stays, to be clicked again
            if (node.more) return void appendMaterials(node.more.productLineCode, node.more.page).catch(() => {});
            if (node.materialCode) onSelect({ productLineCode: node.productLineCode, materialCode: node.materialCode });
            else if (selectedKey === node.key) onSelect({});
            else onSelect({ productLineCode: node.productLineCode });
          }}
        />
      )}
    </div>
  );
}
