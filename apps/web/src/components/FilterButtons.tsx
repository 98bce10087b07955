import type { ReactNode } from 'react';
import { Button, Space } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';

/** The 搜索 (submits the filter form) and 重置 pair of every filter bar. */
export function FilterButtons({
  onReset,
  extra,
  style,
}: {
  onReset: () => void;
  extra?: ReactNode;
  style?: React.CSSProperties;
}) {
  return (
    <Space style={style}>
      <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
        搜索
      </Button>
      <Button icon={<ReloadOutlined />} onClick={onReset}>
        重置
      </Button>
      {extra}
    </Space>
  );
}
