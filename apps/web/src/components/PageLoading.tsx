import { Spin } from 'antd';

export function PageLoading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240, height: '100%' }}>
      <Spin size="large" description="加载中…">
        <div style={{ width: 120, height: 80 }} />
      </Spin>
    </div>
  );
}
