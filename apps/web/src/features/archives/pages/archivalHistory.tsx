/**
 * /esm/drawingManagement/archivalHistory — 档案历史: versions no longer current (replaced by a
 * newer version, or obsoleted), with when and why they were obsoleted.
 */
import { archivesApi } from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import { useRefreshArchiveLists } from '../api.ts';
import { fileFilterFields } from '../fileFilters.ts';
import { ARCHIVE_DEFAULT_HIDDEN, fileColumns } from '../fileColumns.tsx';
import { useFileActions } from '../useFileActions.tsx';

const FIELDS = fileFilterFields(false);

export default function ArchivalHistoryPage() {
  const actions = useFileActions({ onChanged: useRefreshArchiveLists() });
  return (
    <>
      <ListPage
        endpoint={archivesApi.history}
        columns={fileColumns({ actions: actions.render, withObsolete: true })}
        fields={FIELDS}
        rowKey="id"
        filterTestId="file-filters"
        columnSettings={{ table: 'archivalHistory', defaultHidden: ARCHIVE_DEFAULT_HIDDEN }}
      />
      {actions.dialogs}
    </>
  );
}
