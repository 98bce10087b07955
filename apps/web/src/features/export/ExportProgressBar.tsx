import { Progress } from 'antd';

/** The export's download as a bar (antd's Progress: its own chunk, ExportButton.tsx). */
export function ExportProgressBar({ percent }: { percent: number }) {
  return <Progress aria-label="导出进度" percent={percent} size="small" style={{ width: 160, margin: 0 }} />;
}
