/** 导出Excel (or another download, by `label`): busy while the server writes, then the file and a toast; a refusal in the server's words. */
import { useState } from 'react';
import { App, Button, type ButtonProps } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { serverErrorText } from './serverErrors.ts';

export function ExcelButton({
  run,
  disabled,
  label = '导出Excel',
  done = '已导出',
  size,
  type,
  testId,
}: {
  run: () => Promise<string>;
  disabled?: boolean;
  label?: string;
  done?: string;
  size?: ButtonProps['size'];
  type?: ButtonProps['type'];
  testId?: string;
}) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      icon={<DownloadOutlined />}
      size={size}
      type={type}
      data-testid={testId}
      loading={busy}
      disabled={disabled}
      onClick={async () => {
        setBusy(true);
        try {
          message.success(`${done}：${await run()}`);
        } catch (e) {
          message.error(serverErrorText(e, `${label}失败`));
        } finally {
          setBusy(false);
        }
      }}
    >
      {label}
    </Button>
  );
}
