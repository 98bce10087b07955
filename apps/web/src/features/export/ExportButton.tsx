/**
 * 导出Excel: the archive list with the current filters and sort, streamed by the server. Says how
 * many rows are coming as soon as the server has counted them (X-Total-Rows: "正在导出 N 条…"),
 * then what has arrived ("已下载 x KB", a Progress when the size is known); the success toast
 * repeats the count. A refusal (too many rows) is said in the server's words.
 */
import { useState } from 'react';
import { App, Button, Space, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { exportDrawingExcel, type ExportProgress, type ExportRequest } from './api.ts';
import { formatFileSize } from '../../components/labels.tsx';
import { serverErrorText } from '../../components/serverErrors.ts';
import { lazyDialog } from '../../lib/lazyLoaded.ts';

// antd's Progress only shows while an export runs: fetched after the list page
const ExportProgressBar = lazyDialog(
  () => import('./ExportProgressBar.tsx'),
  (m) => m.ExportProgressBar,
  () => true,
);

/** The filters and sort of the list shown (sortField as the table's columns name it). */
export function ExportButton({ filters }: { filters: Record<string, unknown> }) {
  const { message } = App.useApp();
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const run = async () => {
    setProgress({ rows: null, received: 0, total: null });
    try {
      const rows = await exportDrawingExcel(filters as ExportRequest, setProgress);
      message.success(rows === null ? '导出完成' : `导出完成，共 ${rows} 条`);
    } catch (e) {
      message.error(serverErrorText(e, '导出失败'));
    } finally {
      setProgress(null);
    }
  };
  return (
    <Space>
      <Button icon={<DownloadOutlined />} loading={progress !== null} disabled={progress !== null} onClick={run}>
        导出Excel
      </Button>
      {progress && (
        <Space size={8} data-testid="export-progress">
          <Typography.Text type="secondary">
            {progress.rows === null ? '正在生成…' : `正在导出 ${progress.rows} 条…`}
          </Typography.Text>
          {progress.total ? (
            <ExportProgressBar percent={Math.floor((progress.received / progress.total) * 100)} />
          ) : (
            progress.received > 0 && (
              <Typography.Text type="secondary">已下载 {formatFileSize(progress.received)}</Typography.Text>
            )
          )}
        </Space>
      )}
    </Space>
  );
}
