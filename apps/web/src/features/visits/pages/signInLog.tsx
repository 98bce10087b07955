/**
 * 登录日志: every sign-in to the portal, by password or through the company home page, success or
 * refusal, with the code and reason it was answered with (sign_in_log). Not in the
 * legacy portal: what an administrator reads when an account is locked or a supplier cannot get in.
 */
import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { SIGN_IN_SOURCES, SIGN_IN_SOURCE_LABELS, USER_TYPE_LABELS, visitsApi, type SignInLogRow } from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import type { FilterField } from '../../../components/FilterForm.tsx';
import { formatDateTime } from '../../../components/labels.tsx';

const columns: ColumnsType<SignInLogRow> = [
  { title: '登录时间', dataIndex: 'createdAt', sorter: true, width: 170, render: formatDateTime },
  { title: '账号', dataIndex: 'account', sorter: true, width: 130, ellipsis: true, render: (a: string) => a || '—' },
  {
    title: '姓名',
    dataIndex: 'userName',
    width: 230,
    ellipsis: true,
    render: (name: string | null, r) =>
      name
        ? `${name}${r.userType ? `（${USER_TYPE_LABELS[r.userType as keyof typeof USER_TYPE_LABELS] ?? r.userType}）` : ''}`
        : '未找到账号',
  },
  { title: '方式', dataIndex: 'source', width: 100, render: (s: SignInLogRow['source']) => SIGN_IN_SOURCE_LABELS[s] },
  {
    title: '结果',
    dataIndex: 'success',
    width: 80,
    render: (ok: boolean) => (ok ? <Tag color="green">成功</Tag> : <Tag color="red">失败</Tag>),
  },
  {
    title: '说明',
    dataIndex: 'reason',
    ellipsis: true,
    render: (reason: string, r) => (r.success ? reason : `${reason}（${r.code}）`),
  },
  { title: 'IP', dataIndex: 'ip', width: 130 },
];

const fields: FilterField[] = [
  { kind: 'text', name: 'keyword', label: '关键字', placeholder: '账号或姓名' },
  {
    kind: 'select',
    name: 'result',
    label: '结果',
    width: 110,
    options: [
      { value: '1', label: '成功' },
      { value: '0', label: '失败' },
    ],
  },
  {
    kind: 'select',
    name: 'source',
    label: '方式',
    width: 130,
    options: SIGN_IN_SOURCES.map((s) => ({ value: s, label: SIGN_IN_SOURCE_LABELS[s] })),
  },
  { kind: 'dateRange', from: 'dateFrom', to: 'dateTo', label: '登录日期' },
];

export default function SignInLogPage() {
  return <ListPage endpoint={visitsApi.signInLog} columns={columns} fields={fields} rowKey="id" />;
}
