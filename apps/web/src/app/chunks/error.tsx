import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../SessionGate.tsx';

export default function NotFoundPage() {
  const navigate = useNavigate();
  const user = useCurrentUser();
  return (
    <Result
      status="404"
      title="404"
      subTitle="抱歉，您访问的页面不存在。"
      extra={
        <Button type="primary" onClick={() => navigate(user.defaultPath)}>
          返回首页
        </Button>
      }
      data-testid="not-found"
    />
  );
}
