/**
 * /esm/login (spec §4): loading while signing in; "10000000" → "登陆成功" for 3 s and on to the
 * landing page; otherwise the server's message for 3 s. Fields are checked as the very schema
 * the server validates with.
 */
import { useRef, useState } from 'react';
import { Alert, App, Button, Divider, Form, Input, Layout, Typography, theme } from 'antd';
import { BankOutlined, LockOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { CODES, COMPANY_LOGIN_TEXT, LOGIN_SUCCESS_TEXT, UI, checkLoginField, isReturnPath, type CurrentUser, type LoginRequest } from '@esm/contracts/basics';
import { ApiError } from '../../api/client.ts';
import { companyLogin, login, useSession } from './api.ts';
import { AppFooter } from '../../app/layout/AppFooter.tsx';
import type { Rule } from 'antd/es/form';

/**
 * The fields are checked as the server's ZLoginRequestSchema checks them, by its zod-free twin
 * (contracts session-basics.ts): zod and the menu's schemas stay off this page's first load.
 */
const loginRule = (field: 'account' | 'password'): Rule => ({
  validator: (_, value: unknown) => {
    const message = checkLoginField(field, value ?? '');
    return message ? Promise.reject(new Error(message)) : Promise.resolve();
  },
});

/**
 * Where a user lands after signing in: the page they were sent away from (only a path inside the
 * portal: no open redirect), when it is one of
 * their own menu's pages — another user's page left in ?redirect= (a shared browser) would only
 * say 没有权限 (issue 8) — else their type's landing page.
 */
async function landingOf(user: CurrentUser, redirect: string | null, menu: () => Promise<{ router: string }[]>): Promise<string> {
  if (!isReturnPath(redirect)) return user.defaultPath;
  const target = redirect;
  const path = target.split(/[?#]/)[0]!.replace(/\/+$/, '');
  if (path === user.defaultPath) return target;
  return (await menu()).some((m) => m.router === path) ? target : user.defaultPath;
}

export default function LoginPage() {
  const [form] = Form.useForm<LoginRequest>();
  const { message } = App.useApp();
  const [loading, setLoading] = useState(false);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const session = useSession();
  const signingIn = useRef(false);
  const [leaving, setLeaving] = useState(false);
  const { token } = theme.useToken();

  // Already signed in (not by this form, which navigates itself): to one's own landing page.
  if (session.data?.state === 'ok' && !signingIn.current) return <Navigate to={session.data.user.defaultPath} replace />;

  async function onFinish(values: LoginRequest) {
    setLoading(true);
    signingIn.current = true;
    try {
      const res = await login(values);
      if (res.code !== CODES.LOGIN_OK || !res.data) throw new Error(res.message);
      message.success({ content: LOGIN_SUCCESS_TEXT, duration: UI.toastSeconds });
      const user = res.data;
      const landing = await landingOf(user, params.get('redirect'), async () => qc.fetchQuery((await import('../menu/index.ts')).menuQuery(user.id)));
      navigate(landing, { replace: true });
      qc.setQueryData(['session'], { state: 'ok', user });
    } catch (e) {
      if (e instanceof ApiError && e.errors.length) {
        form.setFields(e.errors.filter((f) => f.field === 'account' || f.field === 'password').map((f) => ({ name: f.field as keyof LoginRequest, errors: [f.message] })));
      }
      message.error({ content: e instanceof Error && e.message ? e.message : '登录失败，请稍后重试', duration: UI.toastSeconds });
      signingIn.current = false;
      setLoading(false);
    }
  }

  /** To the company's identity provider; it sends the browser back to the portal signed in. */
  async function onCompanyLogin() {
    setLeaving(true);
    try {
      // the page the user was sent here from: the server gives it back once signed in (if theirs)
      const res = await companyLogin(params.get('redirect') ?? undefined);
      window.location.assign(res.data.url);
    } catch (e) {
      message.error({ content: e instanceof Error && e.message ? e.message : '公司门户登录暂不可用，请稍后重试', duration: UI.toastSeconds });
      setLeaving(false);
    }
  }
  const offerCompany = session.data?.state === 'anonymous' && session.data.companyLogin === true;

  return (
    <Layout style={{ minHeight: '100vh', background: 'linear-gradient(160deg, #001529 0%, #1668dc 100%)' }}>
      <Layout.Content style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 16 }}>
        {/* a plain box in the card's colours: antd's Card brings Tabs along (issue 16, first-load size) */}
        <div style={{ width: 380, maxWidth: '100%', padding: 24, background: token.colorBgContainer, borderRadius: token.borderRadiusLG }} data-testid="login-card">
          <div style={{ textAlign: 'center', marginBottom: 24 }}>
            <img src="/esm/logo.svg" alt="ESM" width={48} height={48} />
            <Typography.Title level={3} style={{ margin: '12px 0 4px' }}>ESM 图纸档案管理平台</Typography.Title>
            <Typography.Text type="secondary">用户登录</Typography.Text>
          </div>
          {params.get('reason') === 'expired' && <Alert type="warning" showIcon title="登录已过期，请重新登录" style={{ marginBottom: 16 }} data-testid="expired-notice" />}
          <Form form={form} onFinish={onFinish} size="large" autoComplete="on" requiredMark={false}>
            <Form.Item name="account" rules={[loginRule('account')]}>
              <Input prefix={<UserOutlined />} placeholder="账号" autoComplete="username" autoFocus />
            </Form.Item>
            <Form.Item name="password" rules={[loginRule('password')]}>
              <Input.Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={loading}>
              登录
            </Button>
          </Form>
          {offerCompany && (
            <>
              <Divider plain style={{ margin: '20px 0 16px' }}>
                <Typography.Text type="secondary">公司员工</Typography.Text>
              </Divider>
              <Button block size="large" icon={<BankOutlined />} loading={leaving} onClick={onCompanyLogin} data-testid="company-login">
                {COMPANY_LOGIN_TEXT}
              </Button>
            </>
          )}
        </div>
      </Layout.Content>
      <AppFooter />
    </Layout>
  );
}
