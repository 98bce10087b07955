/**
 * /esm/login (spec §4): loading while signing in; "10000000" → "登陆成功" for 3 s and on to the
 * landing page; otherwise the server's message for 3 s. Fields are checked with the very schema
 * the server validates with.
 */
import { useState } from 'react';
import { App, Button, Card, Form, Input, Layout, Typography } from 'antd';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { CODES, LOGIN_SUCCESS_TEXT, UI, ZLoginRequestSchema, type LoginRequest } from '@esm/contracts';
import { ApiError } from '../../api/client.ts';
import { login, useSession } from '../../api/session.ts';
import { AppFooter } from '../../app/layout/AppFooter.tsx';
import { zodRule } from '../../components/zodRule.ts';

/** Only paths inside the portal may be returned to after login (no open redirect). */
function safeRedirect(raw: string | null, fallback: string): string {
  return raw && raw.startsWith('/esm/') && !raw.startsWith('//') && !raw.startsWith('/esm/login') ? raw : fallback;
}

export default function LoginPage() {
  const [form] = Form.useForm<LoginRequest>();
  const { message } = App.useApp();
  const [loading, setLoading] = useState(false);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const session = useSession();

  if (session.data?.state === 'ok') return <Navigate to={safeRedirect(params.get('redirect'), session.data.user.defaultPath)} replace />;

  async function onFinish(values: LoginRequest) {
    setLoading(true);
    try {
      const res = await login(values);
      if (res.code !== CODES.LOGIN_OK) throw new Error(res.message);
      message.success({ content: LOGIN_SUCCESS_TEXT, duration: UI.toastSeconds });
      qc.setQueryData(['session'], { state: 'ok', user: res.data });
      navigate(safeRedirect(params.get('redirect'), res.data.defaultPath), { replace: true });
    } catch (e) {
      if (e instanceof ApiError && e.errors.length) {
        form.setFields(e.errors.filter((f) => f.field === 'account' || f.field === 'password').map((f) => ({ name: f.field as keyof LoginRequest, errors: [f.message] })));
      }
      message.error({ content: e instanceof Error && e.message ? e.message : '登录失败，请稍后重试', duration: UI.toastSeconds });
      setLoading(false);
    }
  }

  return (
    <Layout style={{ minHeight: '100vh', background: 'linear-gradient(160deg, #001529 0%, #1668dc 100%)' }}>
      <Layout.Content style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 16 }}>
        <Card style={{ width: 380, maxWidth: '100%' }} data-testid="login-card">
          <div style={{ textAlign: 'center', marginBottom: 24 }}>
            <img src="/esm/logo.svg" alt="ESM" width={48} height={48} />
            <Typography.Title level={3} style={{ margin: '12px 0 4px' }}>ESM 图纸档案管理平台</Typography.Title>
            <Typography.Text type="secondary">用户登录</Typography.Text>
          </div>
          <Form form={form} onFinish={onFinish} size="large" autoComplete="on" requiredMark={false}>
            <Form.Item name="account" rules={[zodRule(ZLoginRequestSchema.shape.account)]}>
              <Input prefix={<UserOutlined />} placeholder="账号" autoComplete="username" autoFocus />
            </Form.Item>
            <Form.Item name="password" rules={[zodRule(ZLoginRequestSchema.shape.password)]}>
              <Input.Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={loading}>
              登录
            </Button>
          </Form>
        </Card>
      </Layout.Content>
      <AppFooter />
    </Layout>
  );
}
