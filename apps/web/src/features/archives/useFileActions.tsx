/**
 * The 操作 cell of an archive row — 查看 (pdf/images), 下载, 可见供应商, 作废 (current and
 * history versions) — and the dialogs these open, shared by every internal archive list.
 */
import { useState, type ReactNode } from 'react';
import { Button, Space, Tooltip } from 'antd';
import { archivesApi, type StandardFileRow } from '@esm/contracts';
import { useButton } from '../../lib/permissions.ts';
import { FileViewer, downloadFile } from '../files/index.ts';
import { lazyDialog } from '../../lib/lazyLoaded.ts';

// fetched after the list, opened by a click on a row's 可见供应商 or 作废
const FileSuppliersDrawer = lazyDialog(
  () => import('./FileSuppliersDrawer.tsx'),
  (m) => m.FileSuppliersDrawer,
  (p) => p.file !== null,
);
const ObsoleteDialog = lazyDialog(
  () => import('./ObsoleteDialog.tsx'),
  (m) => m.ObsoleteDialog,
  (p) => p.file !== null,
);

function DownloadButton({ row }: { row: StandardFileRow }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      type="link"
      size="small"
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadFile(row.id);
        } catch {
          // the API client has shown the refusal
        } finally {
          setBusy(false);
        }
      }}
    >
      下载
    </Button>
  );
}

export function useFileActions({ onChanged }: { onChanged: () => void }): {
  render: (row: StandardFileRow) => ReactNode;
  dialogs: ReactNode;
} {
  const [viewing, setViewing] = useState<StandardFileRow | null>(null);
  const [suppliersOf, setSuppliersOf] = useState<StandardFileRow | null>(null);
  const [obsoleting, setObsoleting] = useState<StandardFileRow | null>(null);
  const mayObsolete = useButton(archivesApi.obsolete);

  const render = (row: StandardFileRow) => (
    // two to a line (查看 下载 / 可见供应商 作废): beside the material tree at 1366 px the sticky
    // column then leaves room for the columns a user decides by, and a phone's row stays in view
    <Space size={[0, 0]} wrap style={{ maxWidth: 160 }}>
      {row.viewable ? (
        <Button type="link" size="small" onClick={() => setViewing(row)}>
          查看
        </Button>
      ) : (
        <Tooltip title={`${row.fileType.toUpperCase()} 文件不能在线查看，请下载`}>
          <Button type="link" size="small" disabled>
            查看
          </Button>
        </Tooltip>
      )}
      <DownloadButton row={row} />
      <Button type="link" size="small" onClick={() => setSuppliersOf(row)}>
        可见供应商
      </Button>
      {mayObsolete && (row.status === 'EFFECTIVE' || row.status === 'HISTORY') && (
        <Button type="link" size="small" danger onClick={() => setObsoleting(row)}>
          作废
        </Button>
      )}
    </Space>
  );

  const dialogs = (
    <>
      <FileViewer file={viewing} onClose={() => setViewing(null)} />
      <FileSuppliersDrawer file={suppliersOf} onClose={() => setSuppliersOf(null)} />
      <ObsoleteDialog
        file={obsoleting}
        onClose={() => setObsoleting(null)}
        onDone={() => {
          setObsoleting(null);
          onChanged();
        }}
      />
    </>
  );
  return { render, dialogs };
}
