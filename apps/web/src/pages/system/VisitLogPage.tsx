/**
 * 访问日志: the user_visit events (spec §4) for internal admins — the first real use of the
 * shared PagedTable and SearchBox.
 */
import { useState } from 'react';
import { DatePicker, Select, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { USER_TYPES, USER_TYPE_LABELS, isSupplierType, type VisitLogRow } from '@esm/contracts';
import { fetchVisitLog } from '../../api/visits.ts';
import { PagedTable } from '../../components/PagedTable.tsx';
import { SearchBox } from '../../components/SearchBox.tsx';

const columns: ColumnsType<VisitLogRow> = [
  { title: '访问时间', dataIndex: 'createdAt', sorter: true, width: 170, render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss') },
  { title: '账号', dataIndex: 'userCode', sorter: true, width: 120 },
  { title: '姓名', dataIndex: 'userName', width: 140, ellipsis: true },
  {
    title: '用户类型',
    dataIndex: 'userType',
    sorter: true,
    width: 150,
    render: (t: number) => <Tag color={isSupplierType(t) ? 'orange' : 'blue'}>{t} · {USER_TYPE_LABELS[t as keyof typeof USER_TYPE_LABELS]}</Tag>,
  },
  { title: '页面', dataIndex: 'menuName', sorter: true, width: 160, ellipsis: true },
  { title: '路径', dataIndex: 'path', ellipsis: true },
  { title: 'IP', dataIndex: 'ip', width: 130 },
];

interface Filters {
  keyword?: string;
  userType?: number;
  dateFrom?: string;
  dateTo?: string;
}

export default function VisitLogPage() {
  const [filters, setFilters] = useState<Filters>({});
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  return (
    <PagedTable<VisitLogRow, Filters>
      queryKey="visitLog"
      fetcher={fetchVisitLog}
      columns={columns}
      filters={filters}
      rowKey="id"
      scrollX={1000}
      toolbar={
        <Space wrap style={{ marginBottom: 16 }}>
          <SearchBox placeholder="账号或姓名" onSearch={({ keyword }) => setFilters((f) => ({ ...f, keyword: keyword || undefined }))} />
          <Select
            allowClear
            placeholder="用户类型"
            style={{ width: 180 }}
            value={filters.userType}
            onChange={(v?: number) => setFilters((f) => ({ ...f, userType: v }))}
            options={USER_TYPES.map((t) => ({ value: t, label: `${t} · ${USER_TYPE_LABELS[t]}` }))}
            aria-label="用户类型"
          />
          <DatePicker.RangePicker
            value={range}
            onChange={(v) => {
              setRange(v);
              setFilters((f) => ({ ...f, dateFrom: v?.[0]?.format('YYYY-MM-DD'), dateTo: v?.[1]?.format('YYYY-MM-DD') }));
            }}
            aria-label="访问日期"
          />
        </Space>
      }
    />
  );
}
