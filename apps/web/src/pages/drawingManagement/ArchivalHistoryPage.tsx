/**
 * /esm/drawingManagement/archivalHistory — 档案历史: versions no longer current (replaced by a
 * newer version, or obsoleted), with when and why they were obsoleted.
 */
import { useState } from 'react';
import { Form } from 'antd';
import type { StandardFileRow } from '@esm/contracts';
import { STANDARD_FILE_HISTORY_PAGER, fetchStandardFileHistoryPager, useRefreshArchiveLists } from '../../api/archives.ts';
import { PagedTable } from '../../components/PagedTable.tsx';
import { FileFilterBar, type FileFilterValues, type FileFilters } from './archive/FileFilterBar.tsx';
import { columnsWidth, fileColumns } from './archive/fileColumns.tsx';
import { useFileActions } from './archive/useFileActions.tsx';

type HistoryFilters = Omit<FileFilters, 'status'>;

export default function ArchivalHistoryPage() {
  const [form] = Form.useForm<FileFilterValues>();
  const [filters, setFilters] = useState<HistoryFilters>({});
  const actions = useFileActions({ onChanged: useRefreshArchiveLists() });
  const columns = fileColumns({ actions: actions.render, withObsolete: true });
  return (
    <>
      <PagedTable<StandardFileRow, HistoryFilters>
        queryKey={STANDARD_FILE_HISTORY_PAGER}
        fetcher={fetchStandardFileHistoryPager}
        columns={columns}
        filters={filters}
        rowKey="id"
        scrollX={columnsWidth(columns)}
        toolbar={
          <div style={{ marginBottom: 16 }}>
            <FileFilterBar
              form={form}
              withStatus={false}
              onSearch={({ status: _status, ...f }) => setFilters(f)}
              onReset={() => setFilters({})}
            />
          </div>
        }
      />
      {actions.dialogs}
    </>
  );
}
