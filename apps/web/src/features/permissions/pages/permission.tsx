/**
 * 按钮与列权限 (/esm/system/permission, type 7): each page's buttons and governed
 * columns as a matrix of user types — a button: may use it or not; a column: 可见 / 脱敏 / 隐藏 —
 * saved cell by cell (the server answers 409 when someone else changed the row meanwhile), with
 * search, 新增, delete and batch delete (confirmed), and the append-only change log below.
 */
import { useState } from 'react';
import { App, Button, Checkbox, Form, Input, Modal, Popconfirm, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import type { ListColumns } from '../../../components/listColumns.tsx';
import {
  COLUMN_MODES,
  COLUMN_MODE_LABELS,
  PERMISSION_ACTIONS,
  PERMISSION_ACTION_LABELS,
  PERMISSION_KINDS,
  PERMISSION_KIND_LABELS,
  GROUP_TITLES,
  ROUTES,
  UI,
  USER_TYPES,
  USER_TYPE_LABELS,
  columnModeOf,
  permissionsApi,
  routeByPath,
  type ColumnMode,
  type PermissionChangeRow,
  type PermissionItem,
  type PermissionKind,
  type UserType,
} from '@esm/contracts';
import { FilterForm, type FilterField, type Filters } from '../../../components/FilterForm.tsx';
import { PagedTable } from '../../../components/PagedTable.tsx';
import { UrlTabs } from '../../../components/UrlTabs.tsx';
import { formatDateTime } from '../../../components/labels.tsx';
import { serverErrorText } from '../../../components/serverErrors.ts';
import { deleteItems, insertItem, updateItem, useRefreshPermissions } from '../api.ts';

const pageTitle = (page: string) => routeByPath.get(page)?.title ?? page;
const PAGE_OPTIONS = ROUTES.map((r) => ({ value: r.path, label: `${r.title}（${r.path}）` }));
/** The same pages under their menu group's heading (a long list): searchable by title or path. */
const PAGE_GROUPS = ['', ...Object.keys(GROUP_TITLES)].map((group) => ({
  label: GROUP_TITLES[group] ?? '首页',
  options: PAGE_OPTIONS.filter((o) => routeByPath.get(o.value)?.group === group),
}));
const MODE_COLORS: Record<ColumnMode, string> = { VISIBLE: 'green', MASKED: 'gold', HIDDEN: 'default' };

const itemFields: FilterField[] = [
  { kind: 'select', name: 'menuPage', label: '页面', width: 240, options: PAGE_GROUPS, search: true },
  {
    kind: 'select',
    name: 'kind',
    label: '类型',
    width: 100,
    options: PERMISSION_KINDS.map((k) => ({ value: k, label: PERMISSION_KIND_LABELS[k] })),
  },
  { kind: 'text', name: 'keyword', label: '关键字', placeholder: '编码或名称', width: 150 },
];

/** The cell of one user type: a checkbox for a button, a mode for a column; saved at once. */
function TypeCell({
  item,
  type,
  onSave,
}: {
  item: PermissionItem;
  type: UserType;
  onSave: (item: PermissionItem, allowed: number[], masked: number[]) => void;
}) {
  const label = `${item.label} · ${type} ${USER_TYPE_LABELS[type]}`;
  if (item.kind === 'BUTTON') {
    const on = item.allowedTypes.includes(type);
    return (
      <Checkbox
        checked={on}
        aria-label={label}
        onChange={(e) =>
          onSave(
            item,
            e.target.checked ? [...item.allowedTypes, type] : item.allowedTypes.filter((t) => t !== type),
            [],
          )
        }
      />
    );
  }
  const mode = columnModeOf(item, type);
  return (
    <Select<ColumnMode>
      size="small"
      value={mode}
      aria-label={label}
      style={{ width: 68 }}
      variant="borderless"
      options={COLUMN_MODES.map((m) => ({
        value: m,
        label: <Tag color={MODE_COLORS[m]}>{COLUMN_MODE_LABELS[m]}</Tag>,
      }))}
      onChange={(m) => {
        const allowed = item.allowedTypes.filter((t) => t !== type);
        const masked = item.maskedTypes.filter((t) => t !== type);
        onSave(item, m === 'VISIBLE' ? [...allowed, type] : allowed, m === 'MASKED' ? [...masked, type] : masked);
      }}
    />
  );
}

interface NewItem {
  kind: PermissionKind;
  page: string;
  code: string;
  label: string;
  allowedTypes: number[];
}

function InsertModal({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<NewItem>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (v: NewItem) => {
    setBusy(true);
    setError(null);
    try {
      await insertItem({ ...v, maskedTypes: [] });
      message.success('已新增');
      form.resetFields();
      onDone();
    } catch (e) {
      setError(serverErrorText(e, '新增失败'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title="新增按钮或列"
      okText="保存"
      cancelText="取消"
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      width={UI.modalWidth}
    >
      <Form<NewItem>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ kind: 'BUTTON', allowedTypes: [] }}
      >
        <Form.Item name="kind" label="类型" rules={[{ required: true, message: '请选择类型' }]}>
          <Select options={PERMISSION_KINDS.map((k) => ({ value: k, label: PERMISSION_KIND_LABELS[k] }))} />
        </Form.Item>
        <Form.Item name="page" label="页面" rules={[{ required: true, message: '请选择页面' }]}>
          <Select showSearch={{ optionFilterProp: 'label' }} options={PAGE_GROUPS} placeholder="选择页面" />
        </Form.Item>
        <Form.Item
          name="code"
          label="编码"
          extra="按钮：动作编码（如 export）；列：行数据的字段名"
          rules={[
            { required: true, message: '请输入编码' },
            { pattern: /^[A-Za-z][\w.-]*$/, message: '编码以字母开头，只能包含字母、数字和 _ . -' },
          ]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="label" label="名称" rules={[{ required: true, whitespace: true, message: '请输入名称' }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="allowedTypes" label="允许（按钮）/ 可见（列）的用户类型">
          <Checkbox.Group options={USER_TYPES.map((t) => ({ value: t, label: `${t} ${USER_TYPE_LABELS[t]}` }))} />
        </Form.Item>
        {error && <Typography.Text type="danger">{error}</Typography.Text>}
      </Form>
    </Modal>
  );
}

function ItemsTab() {
  const { message, modal } = App.useApp();
  const refresh = useRefreshPermissions();
  const [filters, setFilters] = useState<Filters>({});
  const [selected, setSelected] = useState<number[]>([]);
  const [adding, setAdding] = useState(false);

  const save = async (item: PermissionItem, allowedTypes: number[], maskedTypes: number[]) => {
    try {
      await updateItem({
        id: item.id,
        version: item.version,
        label: item.label,
        allowedTypes: [...new Set(allowedTypes)],
        maskedTypes: [...new Set(maskedTypes)],
      });
      message.success(`已保存：${item.label}`);
    } catch (e) {
      message.error(serverErrorText(e, '保存失败'));
    } finally {
      await refresh();
    }
  };

  const remove = async (ids: number[]) => {
    try {
      const res = await deleteItems(ids);
      message.success(`已删除 ${res.data.deleted} 条`);
      setSelected([]);
    } catch (e) {
      message.error(serverErrorText(e, '删除失败'));
    } finally {
      await refresh();
    }
  };

  const columns: ListColumns<PermissionItem> = [
    {
      title: '页面',
      dataIndex: 'page',
      sorter: true,
      width: 150,
      ellipsis: true,
      render: (p: string) => (
        <Tooltip title={p}>
          <span>{pageTitle(p)}</span>
        </Tooltip>
      ),
    },
    {
      title: '类型',
      dataIndex: 'kind',
      width: 64,
      render: (k: PermissionKind) => <Tag color={k === 'BUTTON' ? 'blue' : 'purple'}>{PERMISSION_KIND_LABELS[k]}</Tag>,
    },
    {
      title: '名称',
      dataIndex: 'label',
      // on a phone the page and the button or column name a row; the per-type choices unfold below
      role: 'identity',
      width: 150,
      render: (l: string, r) => (
        <span>
          {l} <Typography.Text type="secondary">{r.code}</Typography.Text>
        </span>
      ),
    },
    ...USER_TYPES.map((t) => ({
      title: (
        <Tooltip title={USER_TYPE_LABELS[t]}>
          <span>类型{t}</span>
        </Tooltip>
      ),
      key: `type${t}`,
      width: 76,
      align: 'center' as const,
      render: (_: unknown, r: PermissionItem) => <TypeCell item={r} type={t} onSave={save} />,
    })),
    {
      title: '操作',
      key: 'actions',
      width: 70,
      render: (_: unknown, r) => (
        <Popconfirm
          title={`删除「${r.label}」？`}
          description={r.declared ? '这是页面声明的权限，删除后恢复默认权限。' : '删除后该按钮或列不再受管控。'}
          okText="删除"
          cancelText="取消"
          okButtonProps={{ danger: true }}
          onConfirm={() => remove([r.id])}
        >
          <Button type="link" size="small" danger>
            删除
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <>
      <PagedTable
        endpoint={permissionsApi.page}
        columns={columns}
        filters={filters}
        rowKey="id"
        size="small"
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        emptyText="没有符合条件的按钮或列"
        toolbar={
          <>
            <FilterForm fields={itemFields} onChange={setFilters} testId="permission-filters" />
            <Space style={{ marginBottom: 12 }} wrap>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
                新增
              </Button>
              <Button
                danger
                icon={<DeleteOutlined />}
                disabled={selected.length === 0}
                onClick={() =>
                  modal.confirm({
                    title: `删除选中的 ${selected.length} 条权限？`,
                    width: UI.confirmWidth,
                    content: '页面声明的按钮与列删除后恢复默认权限；其余的不再受管控。删除记录在变更记录中。',
                    okText: '删除',
                    okButtonProps: { danger: true },
                    cancelText: '取消',
                    onOk: () => remove(selected),
                  })
                }
              >
                批量删除{selected.length ? `（${selected.length}）` : ''}
              </Button>
              <Typography.Text type="secondary">
                勾选即保存：按钮为允许使用；列为可见、脱敏或隐藏。服务端同样按此拒绝与过滤。
              </Typography.Text>
            </Space>
          </>
        }
      />
      <InsertModal
        open={adding}
        onClose={() => setAdding(false)}
        onDone={() => {
          setAdding(false);
          void refresh();
        }}
      />
    </>
  );
}

const describe = (json: string | null) => {
  if (!json) return '—';
  const v = JSON.parse(json) as { label: string; allowedTypes: number[]; maskedTypes: number[] };
  const masked = v.maskedTypes.length ? `；脱敏 ${v.maskedTypes.join('、')}` : '';
  return `${v.label}：${v.allowedTypes.length ? v.allowedTypes.join('、') : '无'}${masked}`;
};

const changeColumns: ColumnsType<PermissionChangeRow> = [
  { title: '时间', dataIndex: 'createdAt', sorter: true, width: 165, render: formatDateTime },
  { title: '操作人', dataIndex: 'userName', width: 120, render: (n: string, r) => `${n}（${r.userAccount}）` },
  {
    title: '操作',
    dataIndex: 'action',
    width: 70,
    render: (a: PermissionChangeRow['action']) => PERMISSION_ACTION_LABELS[a],
  },
  { title: '页面', dataIndex: 'page', width: 140, ellipsis: true, render: pageTitle },
  {
    title: '按钮 / 列',
    dataIndex: 'label',
    width: 150,
    render: (l: string, r) => `${PERMISSION_KIND_LABELS[r.kind]} ${l}（${r.code}）`,
  },
  { title: '修改前', dataIndex: 'before', ellipsis: true, render: describe },
  { title: '修改后', dataIndex: 'after', ellipsis: true, render: describe },
];

const changeFields: FilterField[] = [
  { kind: 'select', name: 'menuPage', label: '页面', width: 220, options: PAGE_GROUPS, search: true },
  {
    kind: 'select',
    name: 'action',
    label: '操作',
    width: 100,
    options: PERMISSION_ACTIONS.map((a) => ({ value: a, label: PERMISSION_ACTION_LABELS[a] })),
  },
  { kind: 'text', name: 'keyword', label: '关键字', placeholder: '编码、名称或操作人', width: 170 },
  { kind: 'dateRange', from: 'dateFrom', to: 'dateTo', label: '日期' },
];

function ChangesTab() {
  const [filters, setFilters] = useState<Filters>({});
  return (
    <PagedTable
      endpoint={permissionsApi.changes}
      columns={changeColumns}
      filters={filters}
      rowKey="id"
      size="small"
      emptyText="还没有权限变更"
      toolbar={<FilterForm fields={changeFields} onChange={setFilters} testId="permission-change-filters" />}
    />
  );
}

export default function PermissionPage() {
  return (
    <UrlTabs
      items={[
        { key: 'items', label: '按钮与列', children: <ItemsTab /> },
        { key: 'changes', label: '变更记录', children: <ChangesTab /> },
      ]}
    />
  );
}
