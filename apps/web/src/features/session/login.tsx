/**
 * /esm/login: loading while signing in; "10000000" → "登陆成功" for 3 s and on to the
 * landing page (the caller's `onSignedIn`); otherwise the server's message for 3 s. Fields are
 * checked as the very schema the server validates with.
 *
 * Plain elements and CSS (login.css), no antd, no react-query, no router: this page is the
 * first load of /esm/login (main.tsx), which is to stay ≤ 200 KB of JS. It looks like
 * the antd page it replaces (same texts, messages, large inputs, primary button, card, footer).
 * The portal's shell renders it too, at /esm/login reached inside the app (after a logout).
 */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactElement } from 'react';
import BankOutlined from '@ant-design/icons-svg/es/asn/BankOutlined';
import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import ExclamationCircleFilled from '@ant-design/icons-svg/es/asn/ExclamationCircleFilled';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import LoadingOutlined from '@ant-design/icons-svg/es/asn/LoadingOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import {
  CODES,
  COMPANY_LOGIN_TEXT,
  UI,
  checkLoginField,
  type CurrentUser,
  type LoginRequest,
} from '@esm/contracts/basics';
import { ApiError } from '../../api/client.ts';
import { PlainIcon } from '../../components/PlainIcon.tsx';
import { AppFooter } from '../../app/layout/AppFooter.tsx';
import { companyLogin, login, type SessionCheck } from './calls.ts';
import './login.css';

type Field = keyof LoginRequest;
type FieldErrors = Partial<Record<Field, string>>;

export interface LoginPageProps {
  /** The session check's answer, once in: offers 从公司门户登录 when the server says so. */
  session: SessionCheck | undefined;
  /** Signed in: on to the portal. The page stays busy until it has left; a throw is shown as an error. */
  onSignedIn: (user: CurrentUser) => Promise<void>;
  /** The user started filling the form: the moment to fetch the portal behind it (once). */
  onFirstInput?: () => void;
  /** A filled-in form is being sent (`true`), or its sign-in failed and the form is back (`false`). */
  onSending?: (sending: boolean) => void;
}

/** antd message's error toast, in plain elements: shown for UI.toastSeconds, read out at once. */
function useToast(): [ReactElement | null, (text: string) => void] {
  const [text, setText] = useState<{ text: string; n: number } | null>(null);
  useEffect(() => {
    if (!text) return;
    const t = setTimeout(() => setText(null), UI.toastSeconds * 1000);
    return () => clearTimeout(t);
  }, [text]);
  const el = text ? (
    <div className="esm-toast" role="alert" key={text.n} data-testid="login-toast">
      <PlainIcon icon={CloseCircleFilled} />
      <span>{text.text}</span>
    </div>
  ) : null;
  return [el, (t: string) => setText((old) => ({ text: t, n: (old?.n ?? 0) + 1 }))];
}

function Spinner() {
  return <PlainIcon icon={LoadingOutlined} className="esm-spin" />;
}

export function LoginPage({ session, onSignedIn, onFirstInput, onSending }: LoginPageProps) {
  const id = useId();
  const [values, setValues] = useState<LoginRequest>({ account: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [showPassword, setShowPassword] = useState(false);
  const [loading, setLoading] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [toast, showToast] = useToast();
  const inputs = { account: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) };
  const typed = useRef(false);
  const params = new URLSearchParams(window.location.search);

  function change(field: Field, value: string) {
    if (!typed.current) {
      typed.current = true;
      onFirstInput?.();
    }
    setValues((v) => ({ ...v, [field]: value }));
    // as antd's Form did: a field is checked again on every change
    setErrors((e) => ({ ...e, [field]: checkLoginField(field, value) }));
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (loading) return;
    const found: FieldErrors = {
      account: checkLoginField('account', values.account),
      password: checkLoginField('password', values.password),
    };
    setErrors(found);
    const first = (['account', 'password'] as const).find((f) => found[f]);
    if (first) {
      inputs[first].current?.focus();
      return;
    }
    setLoading(true);
    onSending?.(true);
    try {
      const res = await login(values);
      if (res.code !== CODES.LOGIN_OK || !res.data) throw new Error(res.message);
      await onSignedIn(res.data);
    } catch (err) {
      if (err instanceof ApiError && err.errors.length) {
        const server: FieldErrors = {};
        for (const f of err.errors) if (f.field === 'account' || f.field === 'password') server[f.field] = f.message;
        setErrors(server);
      }
      showToast(err instanceof Error && err.message ? err.message : '登录失败，请稍后重试');
      setLoading(false);
      onSending?.(false);
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
      showToast(e instanceof Error && e.message ? e.message : '公司门户登录暂不可用，请稍后重试');
      setLeaving(false);
    }
  }
  const offerCompany = session?.state === 'anonymous' && session.companyLogin === true;

  function field(name: Field, placeholder: string, icon: typeof UserOutlined, autoComplete: string) {
    const error = errors[name];
    const inputId = `${id}-${name}`;
    const errorId = `${inputId}-error`;
    const password = name === 'password';
    return (
      <div className={error ? 'esm-login-item has-error' : 'esm-login-item'}>
        <label className="esm-sr-only" htmlFor={inputId}>
          {placeholder}
        </label>
        <span className="esm-login-input">
          <PlainIcon icon={icon} />
          <input
            ref={inputs[name]}
            id={inputId}
            name={name}
            type={password && !showPassword ? 'password' : 'text'}
            placeholder={placeholder}
            autoComplete={autoComplete}
            autoFocus={name === 'account'}
            value={values[name]}
            onChange={(e) => change(name, e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          {password && (
            <button
              type="button"
              className="esm-login-eye"
              onClick={() => setShowPassword((s) => !s)}
              aria-label={showPassword ? '隐藏密码' : '显示密码'}
              aria-pressed={showPassword}
            >
              <PlainIcon icon={showPassword ? EyeOutlined : EyeInvisibleOutlined} />
            </button>
          )}
        </span>
        {error && (
          <div id={errorId} className="esm-login-error" role="alert">
            {error}
          </div>
        )}
      </div>
    );
  }

  return (
    <div className="esm-login">
      <main className="esm-login-main">
        <div className="esm-login-card" data-testid="login-card">
          <div className="esm-login-head">
            <img src={`${import.meta.env.BASE_URL}logo.svg`} alt="ESM" width={48} height={48} />
            <h1>ESM 图纸档案管理平台</h1>
            <span className="esm-login-secondary">用户登录</span>
          </div>
          {params.get('reason') === 'expired' && (
            <div className="esm-login-alert" role="alert" data-testid="expired-notice">
              <PlainIcon icon={ExclamationCircleFilled} />
              <span>登录已过期，请重新登录</span>
            </div>
          )}
          <form onSubmit={onSubmit} autoComplete="on" noValidate>
            {field('account', '账号', UserOutlined, 'username')}
            {field('password', '密码', LockOutlined, 'current-password')}
            {/* "登 录": antd spaced a two-character button text so */}
            <button type="submit" className="esm-login-button primary" aria-busy={loading}>
              {loading && <Spinner />}登 录
            </button>
          </form>
          {offerCompany && (
            <>
              <div className="esm-login-divider" role="separator">
                <span>公司员工</span>
              </div>
              <button
                type="button"
                className="esm-login-button"
                onClick={onCompanyLogin}
                aria-busy={leaving}
                disabled={leaving}
                data-testid="company-login"
              >
                {leaving ? <Spinner /> : <PlainIcon icon={BankOutlined} />}
                {COMPANY_LOGIN_TEXT}
              </button>
            </>
          )}
        </div>
      </main>
      <AppFooter />
      {toast}
    </div>
  );
}

export default LoginPage;
