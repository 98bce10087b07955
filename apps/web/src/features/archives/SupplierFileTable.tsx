/**
 * The supplier's file list, one component for 企业标准档案, its history and the tree
 * page: filters, the shared PagedTable, 查看 / 下载 / 确认 per row, 批量确认, and the viewer. Every
 * server action goes through the confidentiality gate; refusals show the server's message.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { App, Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { useMd } from '../../components/useScreen.ts';
import type { ListColumns } from '../../components/listColumns.tsx';
import { CheckCircleOutlined } from '@ant-design/icons';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { PAGES, UI, archivesApi, standardlogApi, type StandardFileRow } from '@esm/contracts';
import { confirmFile, confirmFiles, useConfirmState, useKeepsecretGate } from '../standardlog/index.ts';
import { PagedTable, fetchPagedTableAhead } from '../../components/PagedTable.tsx';
import { ahead } from '../../api/ahead.ts';
import { supplierProductLinesQuery } from './api.ts';
import { FileViewer, downloadFile } from '../files/index.ts';
import { StatusTag, formatDateTime, formatFileSize } from '../../components/labels.tsx';
import { FILE_CLASS_COLUMNS } from './fileColumns.tsx';
import { SupplierFileFilters, type SupplierFileFilterValues } from './SupplierFileFilters.tsx';

export type SupplierFileListKind = 'current' | 'history';

const LISTS = { current: archivesApi.supplierFiles, history: archivesApi.supplierHistory } as const;

export interface SupplierFileTableProps {
  kind: SupplierFileListKind;
  /** The tree page's selection: it replaces the product line and material fields of the bar. */
  scope?: { productLineCode?: string; materialCode?: string };
  initialFilters?: SupplierFileFilterValues;
  /** Buttons or links next to 批量确认. */
  extra?: ReactNode;
  /** What an unfiltered empty list says (e.g. how to get a grant). */
  emptyHint?: ReactNode;
}

/** The table's first calls under its first render's keys, for a landing page to fetch ahead (api/ahead.ts). */
export function fetchSupplierFilesAhead(
  queryClient: QueryClient,
  kind: SupplierFileListKind,
  initialFilters: SupplierFileFilterValues,
) {
  fetchPagedTableAhead(queryClient, LISTS[kind], initialFilters);
  ahead(queryClient, supplierProductLinesQuery);
}

const HIDDEN_BY_DEFAULT = ['category', 'secretLevel', 'effectiveDate'];

export function SupplierFileTable({ kind, scope, initialFilters = {}, extra, emptyHint }: SupplierFileTableProps) {
  const { message, modal } = App.useApp();
  // fixed columns leave no room to scroll on a phone
  const wide = useMd();
  const queryClient = useQueryClient();
  const { run, gate } = useKeepsecretGate();
  const [filters, setFilters] = useState<SupplierFileFilterValues>(initialFilters);
  const [selected, setSelected] = useState<number[]>([]);
  const [viewing, setViewing] = useState<StandardFileRow | null>(null);
  const [downloading, setDownloading] = useState<number | null>(null);
  const list = LISTS[kind];
  const canConfirm = kind === 'current';
  const viewerConfirm = useConfirmState(viewing && canConfirm ? viewing.id : undefined);

  // the tree's selection replaces the bar's product line and material
  const applied = useMemo(
    () => (scope ? { ...filters, productLineCode: scope.productLineCode, materialCode: scope.materialCode } : filters),
    [filters, scope],
  );
  const filtered = Object.values(applied).some((v) => v !== undefined && v !== '');

  const refreshAfterConfirm = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: [list.path] }),
      queryClient.invalidateQueries({ queryKey: [standardlogApi.hasConfirmLog.path] }),
    ]);
  };

  const confirmOne = async (row: Pick<StandardFileRow, 'id' | 'standardCode' | 'version'>) => {
    try {
      const state = await run(() => confirmFile(row.id));
      if (!state) return;
      message.success(`已确认 ${row.standardCode}（${row.version}）`);
      await refreshAfterConfirm();
    } catch {
      // the API client has shown the server's reason
    }
  };

  const confirmSelected = () =>
    modal.confirm({
      title: '批量确认图纸',
      content: `确认您已阅读并知悉选中的 ${selected.length} 份图纸的内容？确认将被记录。`,
      okText: '确认',
      cancelText: '取消',
      width: UI.confirmWidth,
      onOk: async () => {
        try {
          const result = await run(() => confirmFiles(selected));
          if (!result) return;
          message.success(
            `已确认 ${result.confirmed} 份图纸${result.alreadyConfirmed ? `，另有 ${result.alreadyConfirmed} 份此前已确认` : ''}`,
          );
          setSelected([]);
          await refreshAfterConfirm();
        } catch {
          // shown by the API client
        }
      },
    });

  const download = async (row: StandardFileRow) => {
    setDownloading(row.id);
    try {
      const name = await downloadFile(row.id, run);
      if (name) message.success(`已下载：${name}`);
    } catch {
      // shown by the API client
    } finally {
      setDownloading(null);
    }
  };

  const columns: ListColumns<StandardFileRow> = [
    {
      title: '标准编号',
      dataIndex: 'standardCode',
      sorter: true,
      width: 160,
      fixed: wide ? 'left' : undefined,
      render: (v: string) => (
        <Typography.Text
          copyable={{ text: v, tooltips: ['复制', '已复制'] }}
          style={wide ? { whiteSpace: 'nowrap' } : { wordBreak: 'break-all' }}
        >
          {v}
        </Typography.Text>
      ),
    },
    // a phone shows the drawing's code, name and version, its 确认状态 and 操作 (listColumns.tsx)
    { title: '名称', dataIndex: 'name', sorter: true, role: 'identity', ellipsis: true },
    { title: '版本', dataIndex: 'version', sorter: true, role: 'identity' },
    ...(kind === 'history'
      ? [
          {
            title: '状态',
            dataIndex: 'status',
            width: 100,
            render: (s: StandardFileRow['status']) => <StatusTag status={s} />,
          },
        ]
      : []),
    {
      title: '物料',
      dataIndex: 'materialCode',
      sorter: true,
      width: 140,
      render: (code: string, r) => (
        <div style={{ lineHeight: 1.4 }}>
          <Link
            to={`${PAGES.drawingsAndArchivesInformationG.path}?materialCode=${encodeURIComponent(code)}`}
            title="在物料树中查看该物料的全部图纸"
          >
            {code}
          </Link>
          {/* on a line of its own: beside the code, a short name ran into it ("0064000103蒸发器") */}
          <Typography.Text type="secondary" className="esm-cell-wrap" title={r.materialName} style={{ fontSize: 12 }}>
            {r.materialName}
          </Typography.Text>
        </div>
      ),
    },
    ...FILE_CLASS_COLUMNS,
    {
      title: '文件',
      dataIndex: 'fileName',
      width: 170,
      render: (name: string, r) => (
        <div style={{ lineHeight: 1.4 }}>
          <div className="esm-cell-wrap" title={name}>
            {name}
          </div>
          <div>
            <Tag style={{ fontSize: 11, lineHeight: '16px' }}>{r.fileType.toUpperCase()}</Tag>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatFileSize(r.fileSize)}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    {
      title: '确认状态',
      dataIndex: 'confirmedAt',
      width: 124,
      render: (at: string | null | undefined) =>
        at ? (
          <div style={{ lineHeight: 1.4 }} title={`确认时间 ${formatDateTime(at)}`}>
            <Tag color="green" icon={<CheckCircleOutlined />}>
              已确认
            </Tag>
            {/* on a phone the date and the time may take a line each: kept on one, the time pushed
                the table past the card at 390 px and cut 确认 off */}
            <Typography.Text
              type="secondary"
              style={{ fontSize: 12, display: 'block', whiteSpace: wide ? 'nowrap' : undefined }}
            >
              {formatDateTime(at).slice(0, 16)}
            </Typography.Text>
          </div>
        ) : (
          <Tag>未确认</Tag>
        ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 180,
      fixed: wide ? 'right' : undefined,
      render: (_: unknown, r) => (
        // on a phone two to a line (查看 下载 / 确认), so the row's actions stay inside the screen
        <Space size={0} wrap style={wide ? undefined : { maxWidth: 96 }}>
          {r.viewable ? (
            <Button type="link" size="small" onClick={() => setViewing(r)}>
              查看
            </Button>
          ) : (
            <Tooltip title="DWG/DXF 图纸不支持在线查看，请下载">
              <Button type="link" size="small" disabled>
                查看
              </Button>
            </Tooltip>
          )}
          <Button type="link" size="small" loading={downloading === r.id} onClick={() => download(r)}>
            下载
          </Button>
          {canConfirm && !r.confirmedAt && (
            <Popconfirm
              title="确认图纸"
              description="确认您已阅读并知悉该图纸的内容？"
              okText="确认"
              cancelText="取消"
              onConfirm={() => confirmOne(r)}
            >
              <Button type="link" size="small">
                确认
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <SupplierFileFilters
        value={filters}
        onChange={setFilters}
        hide={scope ? ['productLineCode', 'materialCode'] : []}
      />
      <PagedTable
        endpoint={list}
        columns={columns}
        filters={applied}
        rowKey="id"
        // beside the material tree the table is ~290 px narrower: 文件 waits in 列设置 there, so that
        // 确认状态, the column a supplier acts on, stays on screen at 1366 px (its own remembered choice)
        columnSettings={
          scope
            ? { table: `supplierFiles-${kind}-tree`, defaultHidden: [...HIDDEN_BY_DEFAULT, 'fileName'] }
            : { table: `supplierFiles-${kind}`, defaultHidden: HIDDEN_BY_DEFAULT }
        }
        rowSelection={
          canConfirm
            ? {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                onChange: (keys) => setSelected(keys as number[]),
                getCheckboxProps: (r) => ({ disabled: !!r.confirmedAt, 'aria-label': `选择 ${r.standardCode}` }),
              }
            : undefined
        }
        emptyText={!filtered && emptyHint ? emptyHint : undefined}
        toolbar={
          (canConfirm || extra) && (
            <Space wrap style={{ marginBottom: 12 }}>
              {canConfirm && (
                <Button
                  type="primary"
                  icon={<CheckCircleOutlined />}
                  disabled={selected.length === 0}
                  onClick={confirmSelected}
                >
                  批量确认{selected.length ? `（${selected.length}）` : ''}
                </Button>
              )}
              {extra}
            </Space>
          )
        }
      />
      <FileViewer
        file={viewing}
        onClose={() => setViewing(null)}
        run={run}
        confirm={
          viewing && canConfirm
            ? {
                confirmedAt: viewerConfirm.data?.confirmed ? viewerConfirm.data.confirmedAt : viewing.confirmedAt,
                onConfirm: () => confirmOne(viewing),
              }
            : undefined
        }
      />
      {gate}
    </>
  );
}
