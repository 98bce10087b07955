import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useCurrentUser } from './SessionGate.tsx';

export function ForbiddenPage() {
  const navigate = useNavigate();
  const user = useCurrentUser();
  return (
    <Result
      status="403"
      title="没有权限"
      subTitle="您的账号没有访问该页面的权限，如需开通请联系管理员。"
      extra={
        <Button type="primary" onClick={() => navigate(user.defaultPath)}>
          返回首页
        </Button>
      }
    />
  );
}
