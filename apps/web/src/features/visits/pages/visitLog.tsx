/** 访问日志: the user_visit events for internal admins. */
import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { USER_TYPES, USER_TYPE_LABELS, isSupplierType, visitsApi, type VisitLogRow } from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import type { FilterField } from '../../../components/FilterForm.tsx';
import { formatDateTime } from '../../../components/labels.tsx';

const columns: ColumnsType<VisitLogRow> = [
  { title: '访问时间', dataIndex: 'createdAt', sorter: true, width: 170, render: formatDateTime },
  { title: '账号', dataIndex: 'userCode', sorter: true, width: 120 },
  { title: '姓名', dataIndex: 'userName', width: 140, ellipsis: true },
  {
    title: '用户类型',
    dataIndex: 'userType',
    sorter: true,
    width: 150,
    render: (t: number) => (
      <Tag color={isSupplierType(t) ? 'orange' : 'blue'}>
        {t} · {USER_TYPE_LABELS[t as keyof typeof USER_TYPE_LABELS]}
      </Tag>
    ),
  },
  { title: '页面', dataIndex: 'menuName', sorter: true, width: 160, ellipsis: true },
  { title: '路径', dataIndex: 'path', ellipsis: true },
  { title: 'IP', dataIndex: 'ip', width: 130 },
];

const fields: FilterField[] = [
  { kind: 'text', name: 'keyword', label: '关键字', placeholder: '账号或姓名' },
  {
    kind: 'select',
    name: 'userType',
    label: '用户类型',
    width: 180,
    options: USER_TYPES.map((t) => ({ value: t, label: `${t} · ${USER_TYPE_LABELS[t]}` })),
  },
  { kind: 'text', name: 'menuName', label: '页面' },
  { kind: 'dateRange', from: 'dateFrom', to: 'dateTo', label: '访问日期' },
];

export default function VisitLogPage() {
  return <ListPage endpoint={visitsApi.page} columns={columns} fields={fields} rowKey="id" />;
}
