/**
 * 导出Excel: the archive list with the current filters and sort, streamed by the server. Shows
 * what has arrived ("已下载 x KB", a Progress when the size is known); a refusal (too many rows)
 * is said in the server's words.
 */
import { useState } from 'react';
import { App, Button, Progress, Space, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { SortOrder } from '@esm/contracts';
import { exportDrawingExcel } from '../../../api/archives.ts';
import { formatFileSize } from '../../../components/archive/labels.tsx';
import type { FileFilters } from './FileFilterBar.tsx';
import { serverErrorText } from './serverErrors.ts';

export function ExportButton({ filters }: { filters: FileFilters & { productLineCode?: string; sortField?: string; sortOrder?: SortOrder } }) {
  const { message } = App.useApp();
  const [progress, setProgress] = useState<{ received: number; total: number | null } | null>(null);
  const run = async () => {
    setProgress({ received: 0, total: null });
    try {
      await exportDrawingExcel(filters, (received, total) => setProgress({ received, total }));
      message.success('导出完成');
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
      {progress &&
        (progress.total ? (
          <Progress percent={Math.floor((progress.received / progress.total) * 100)} size="small" style={{ width: 160, margin: 0 }} />
        ) : (
          <Typography.Text type="secondary" data-testid="export-progress">
            {progress.received ? `已下载 ${formatFileSize(progress.received)}` : '正在生成…'}
          </Typography.Text>
        ))}
    </Space>
  );
}
