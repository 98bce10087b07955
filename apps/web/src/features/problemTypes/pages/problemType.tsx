/**
 * SQE及产品线管理 (/esm/personManagement/problemType), type 7: two tables — the problem
 * types (name, handling role, response time in working days, enabled; one in use is disabled, not
 * deleted) and the SQE / product-line role table (product line × role → user, unique) with a user
 * picker. Together they route each submitted question.
 */
import { useState } from 'react';
import { App, Button, Card, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import {
  HANDLING_ROLES,
  HANDLING_ROLE_LABELS,
  RESPONSE_DAYS_MAX,
  ZProblemTypeCreateSchema,
  problemTypesApi,
  type HandlingRole,
  type ProblemTypeRow,
  type RoleRow,
} from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import type { FilterField } from '../../../components/FilterForm.tsx';
import { formatDateTime } from '../../../components/labels.tsx';
import { serverErrorText } from '../../../components/serverErrors.ts';
import { useFormSubmit } from '../../../components/useFormSubmit.ts';
import { zodRule } from '../../../components/zodRule.ts';
import { useButton } from '../../../lib/permissions.ts';
import {
  addRole,
  createProblemType,
  deleteProblemType,
  deleteRole,
  updateProblemType,
  useRefreshProblemTypes,
  useRoleProductLines,
  useSelectableUsers,
} from '../api.ts';

const ROLE_OPTIONS = HANDLING_ROLES.map((r) => ({ value: r, label: HANDLING_ROLE_LABELS[r] }));
const field = ZProblemTypeCreateSchema.shape;

interface TypeValues {
  name?: string;
  role?: HandlingRole;
  responseDays?: number;
  enabled?: boolean;
}

function ProblemTypeDialog({
  editing,
  onClose,
  onSaved,
}: {
  editing: ProblemTypeRow | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<TypeValues>();
  const { busy, submit } = useFormSubmit(form, { failText: '保存失败' });
  const ok = async () => {
    const saved = await submit(async (v) => {
      const body = { name: v.name ?? '', role: v.role!, responseDays: v.responseDays!, enabled: v.enabled ?? true };
      return (editing ? await updateProblemType(editing.id, body) : await createProblemType(body)).message;
    });
    if (!saved) return;
    onSaved();
    onClose();
  };
  return (
    <Modal
      open
      title={editing ? '编辑问题类型' : '新增问题类型'}
      onCancel={onClose}
      onOk={ok}
      okText="保存"
      cancelText="取消"
      confirmLoading={busy}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={editing ?? { role: 'PRODUCT_LINE', responseDays: 3, enabled: true }}
      >
        <Form.Item name="name" label="问题类型名称" rules={[zodRule(field.name)]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="role" label="处理角色" rules={[{ required: true, message: '请选择处理角色' }]}>
          <Select options={ROLE_OPTIONS} aria-label="处理角色" />
        </Form.Item>
        <Form.Item name="responseDays" label="响应时间（工作日，周一至周五）" rules={[zodRule(field.responseDays)]}>
          <InputNumber min={1} max={RESPONSE_DAYS_MAX} precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="enabled" label="启用" valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function RoleDialog({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<{ productLineCode?: string; role?: HandlingRole; userId?: number }>();
  const [keyword, setKeyword] = useState('');
  const lines = useRoleProductLines();
  const users = useSelectableUsers(keyword);
  const { busy, submit } = useFormSubmit(form, { failText: '添加失败' });
  const ok = async () => {
    const added = await submit(
      async (v) => (await addRole({ productLineCode: v.productLineCode!, role: v.role!, userId: v.userId! })).message,
    );
    if (!added) return;
    onSaved();
    onClose();
  };
  return (
    <Modal open title="新增角色" onCancel={onClose} onOk={ok} okText="添加" cancelText="取消" confirmLoading={busy}>
      <Form form={form} layout="vertical">
        <Form.Item name="productLineCode" label="产品线" rules={[{ required: true, message: '请选择产品线' }]}>
          <Select
            options={(lines.data ?? []).map((l) => ({ value: l.code, label: l.name }))}
            loading={lines.isLoading}
            aria-label="产品线"
          />
        </Form.Item>
        <Form.Item name="role" label="角色" rules={[{ required: true, message: '请选择角色' }]}>
          <Select options={ROLE_OPTIONS} aria-label="角色" />
        </Form.Item>
        <Form.Item name="userId" label="人员（图纸问题回复人员）" rules={[{ required: true, message: '请选择人员' }]}>
          <Select
            showSearch
            filterOption={false}
            onSearch={setKeyword}
            loading={users.isFetching}
            notFoundContent="没有匹配的人员"
            options={(users.data ?? []).map((u) => ({ value: u.id, label: `${u.name}（${u.account}）` }))}
            placeholder="输入账号或姓名搜索"
            aria-label="人员（图纸问题回复人员）"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function ProblemTypePage() {
  const { message } = App.useApp();
  const refresh = useRefreshProblemTypes();
  const lines = useRoleProductLines();
  const [typeDialog, setTypeDialog] = useState<{ editing: ProblemTypeRow | null } | null>(null);
  const [roleDialog, setRoleDialog] = useState(false);

  const act = async (what: () => Promise<{ message: string }>) => {
    try {
      message.success((await what()).message);
      await refresh();
    } catch (e) {
      message.error(serverErrorText(e, '操作失败'));
    }
  };

  const mayDelete = useButton(problemTypesApi.remove);
  const typeColumns: ColumnsType<ProblemTypeRow> = [
    { title: '问题类型', dataIndex: 'name', sorter: true, width: 200 },
    {
      title: '处理角色',
      dataIndex: 'role',
      width: 100,
      render: (r: HandlingRole) => <Tag color={r === 'SQE' ? 'purple' : 'blue'}>{HANDLING_ROLE_LABELS[r]}</Tag>,
    },
    { title: '响应时间', dataIndex: 'responseDays', sorter: true, width: 110, render: (d: number) => `${d} 个工作日` },
    {
      title: '启用',
      dataIndex: 'enabled',
      width: 80,
      render: (on: boolean, r) => (
        <Switch
          size="small"
          checked={on}
          aria-label={`启用 ${r.name}`}
          onChange={(checked) =>
            act(() =>
              updateProblemType(r.id, { name: r.name, role: r.role, responseDays: r.responseDays, enabled: checked }),
            )
          }
        />
      ),
    },
    { title: '使用次数', dataIndex: 'issueCount', width: 90 },
    { title: '更新时间', dataIndex: 'updatedAt', sorter: true, width: 160, render: formatDateTime },
    {
      title: '操作',
      key: 'actions',
      width: 130,
      render: (_: unknown, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setTypeDialog({ editing: r })}>
            编辑
          </Button>
          {!mayDelete ? null : r.issueCount > 0 ? (
            <Button type="link" size="small" danger onClick={() => act(() => deleteProblemType(r.id))}>
              删除
            </Button>
          ) : (
            <Popconfirm
              title={`删除问题类型「${r.name}」？`}
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => act(() => deleteProblemType(r.id))}
            >
              <Button type="link" size="small" danger>
                删除
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  const roleColumns: ColumnsType<RoleRow> = [
    { title: '产品线', dataIndex: 'productLineName', key: 'productLineCode', sorter: true, width: 120 },
    {
      title: '角色',
      dataIndex: 'role',
      sorter: true,
      width: 100,
      render: (r: HandlingRole) => <Tag color={r === 'SQE' ? 'purple' : 'blue'}>{HANDLING_ROLE_LABELS[r]}</Tag>,
    },
    {
      title: '人员',
      dataIndex: 'userName',
      width: 160,
      render: (n: string, r) => `${n}（${r.userAccount}）${r.userEnabled ? '' : ' 已停用'}`,
    },
    { title: '添加人', dataIndex: 'createdByName', width: 100 },
    { title: '添加时间', dataIndex: 'createdAt', sorter: true, width: 160, render: formatDateTime },
    {
      title: '操作',
      key: 'actions',
      width: 80,
      render: (_: unknown, r) => (
        <Popconfirm
          title={`删除 ${r.productLineName} · ${HANDLING_ROLE_LABELS[r.role]} · ${r.userName}？`}
          okText="删除"
          cancelText="取消"
          okButtonProps={{ danger: true }}
          onConfirm={() => act(() => deleteRole(r.id))}
        >
          <Button type="link" size="small" danger>
            删除
          </Button>
        </Popconfirm>
      ),
    },
  ];

  const typeFields: FilterField[] = [
    { kind: 'text', name: 'keyword', label: '问题类型名称', width: 150 },
    { kind: 'select', name: 'role', label: '处理角色', width: 110, options: ROLE_OPTIONS },
  ];
  const roleFields: FilterField[] = [
    {
      kind: 'select',
      name: 'productLineCode',
      label: '产品线',
      width: 110,
      options: (lines.data ?? []).map((l) => ({ value: l.code, label: l.name })),
    },
    { kind: 'select', name: 'role', label: '角色', width: 110, options: ROLE_OPTIONS },
    { kind: 'text', name: 'keyword', label: '账号或姓名', width: 130 },
  ];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small" title="问题类型" data-testid="problem-types">
        <ListPage
          endpoint={problemTypesApi.page}
          columns={typeColumns}
          fields={typeFields}
          rowKey="id"
          emptyText="还没有问题类型"
          extra={
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setTypeDialog({ editing: null })}
              style={{ marginBottom: 16 }}
            >
              新增问题类型
            </Button>
          }
        />
      </Card>
      <Card size="small" title="SQE / 产品线角色" data-testid="role-table">
        <ListPage
          endpoint={problemTypesApi.roles}
          columns={roleColumns}
          fields={roleFields}
          rowKey="id"
          emptyText="还没有角色记录：问题将全部进入待分派"
          extra={
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setRoleDialog(true)}
              style={{ marginBottom: 16 }}
            >
              新增角色
            </Button>
          }
        />
      </Card>
      {typeDialog && (
        <ProblemTypeDialog
          editing={typeDialog.editing}
          onClose={() => setTypeDialog(null)}
          onSaved={() => void refresh()}
        />
      )}
      {roleDialog && <RoleDialog onClose={() => setRoleDialog(false)} onSaved={() => void refresh()} />}
    </Space>
  );
}
