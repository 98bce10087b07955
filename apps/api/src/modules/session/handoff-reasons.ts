/**
 * Why a company sign-in's hand-off failed, in the words the sign-in log keeps: Chinese, with the
 * provider's (or the OAuth library's) error code after it in brackets for whoever debugs it with
 * the provider — never the libraries' English sentences. And the account, when the provider had
 * already named the user before the hand-off failed (the ID token's claims).
 */

/** The OAuth 2.0 / OpenID Connect error codes a provider answers with (authorization, token, userinfo). */
const PROVIDER_ERRORS: Record<string, string> = {
  invalid_request: '请求缺少参数或参数有误',
  invalid_client: '门户在身份提供方的客户端认证失败（请核对 OIDC_CLIENT_ID 与 OIDC_CLIENT_SECRET）',
  invalid_grant: '授权码无效或已使用',
  unauthorized_client: '门户未获准使用该授权方式',
  unsupported_grant_type: '身份提供方不支持该授权方式',
  unsupported_response_type: '身份提供方不支持该应答类型',
  invalid_scope: '申请的权限范围无效（请核对 OIDC_SCOPES）',
  access_denied: '用户取消了登录，或身份提供方拒绝了登录',
  server_error: '身份提供方内部错误',
  temporarily_unavailable: '身份提供方暂时不可用',
  interaction_required: '需要用户在身份提供方操作',
  login_required: '需要先在身份提供方登录',
  account_selection_required: '需要在身份提供方选择账号',
  consent_required: '需要用户在身份提供方同意授权',
  invalid_token: '访问令牌无效',
  insufficient_scope: '访问令牌的权限范围不足',
};

/** What openid-client / oauth4webapi found wrong in the provider's answers, by their error codes. */
const CHECK_ERRORS: Record<string, string> = {
  OAUTH_JWT_CLAIM_COMPARISON_FAILED: 'ID 令牌的声明与本次登录不符',
  OAUTH_JWT_TIMESTAMP_CHECK_FAILED: 'ID 令牌已过期或签发时间不符',
  OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED: '身份提供方的应答与本次登录不符',
  OAUTH_INVALID_RESPONSE: '身份提供方的应答无效',
  OAUTH_RESPONSE_IS_NOT_JSON: '身份提供方的应答格式不对',
  OAUTH_RESPONSE_IS_NOT_CONFORM: '身份提供方的应答状态异常',
  OAUTH_PARSE_ERROR: '身份提供方的应答无法解析',
  OAUTH_KEY_SELECTION_FAILED: '找不到校验 ID 令牌签名的密钥',
  OAUTH_MISSING_SERVER_METADATA: '身份提供方的配置信息不完整',
  OAUTH_INVALID_SERVER_METADATA: '身份提供方的配置信息无效',
  OAUTH_HTTP_REQUEST_FORBIDDEN: '身份提供方的地址不是 https',
  OAUTH_REQUEST_PROTOCOL_FORBIDDEN: '身份提供方的地址协议不受支持',
  OAUTH_UNSUPPORTED_OPERATION: 'ID 令牌的签名算法不受支持',
  OAUTH_TIMEOUT: '连接身份提供方超时',
  OAUTH_ABORT: '连接身份提供方被中断',
};

type ErrorLike = Error & { error?: unknown; code?: unknown; cause?: unknown };

/** The error and its causes, outermost first (openid-client wraps oauth4webapi's errors). */
function chain(e: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  for (let x = e, depth = 0; x instanceof Error && depth < 5; x = (x as ErrorLike).cause, depth++)
    out.push(x as ErrorLike);
  return out;
}

/** A provider's error code (from its redirect, or the body of its answer) in Chinese, the code after it. */
export function providerErrorText(code: string): string {
  const text = PROVIDER_ERRORS[code];
  return text ? `${text}（${code}）` : `身份提供方返回错误（${code}）`;
}

/** Why completing the hand-off failed, in Chinese, with the code that says it exactly in brackets. */
export function handoffErrorText(e: unknown): string {
  const errors = chain(e);
  const provider = errors.find((x) => typeof x.error === 'string');
  if (provider) return providerErrorText(provider.error as string);
  // a bearer refusal (userinfo): the error is a parameter of the WWW-Authenticate challenge
  const challenged = errors
    .flatMap((x) => (Array.isArray(x.cause) ? (x.cause as { parameters?: { error?: unknown } }[]) : []))
    .find((c) => typeof c.parameters?.error === 'string');
  if (challenged) return providerErrorText(challenged.parameters!.error as string);
  const code = errors.map((x) => x.code).find((c): c is string => typeof c === 'string' && c in CHECK_ERRORS);
  if (code) {
    // which claim did not match (nonce, aud, iss …), or the HTTP status of an unexpected answer
    const detail = errors
      .map((x) => x.cause as { claim?: unknown; status?: unknown } | undefined)
      .map((c) =>
        typeof c?.claim === 'string' ? c.claim : typeof c?.status === 'number' ? `HTTP ${c.status}` : undefined,
      )
      .find(Boolean);
    return `${CHECK_ERRORS[code]}${detail ? `（${code}：${detail}）` : `（${code}）`}`;
  }
  // fetch() failing: the provider unreachable (refused, reset, no route, DNS)
  if (errors.some((x) => x instanceof TypeError && /fetch/i.test(x.message))) return '无法连接身份提供方';
  const other = errors.map((x) => x.code).find((c): c is string => typeof c === 'string' && /^[A-Z0-9_]+$/i.test(c));
  return `身份提供方的应答未通过校验${other ? `（${other}）` : ''}`;
}

/** Claims the provider had sent before the hand-off failed (the ID token's, kept by the error), if any. */
export function claimsOf(e: unknown): Record<string, unknown> | undefined {
  for (const x of chain(e)) {
    const own = (x as { claims?: unknown }).claims;
    if (own && typeof own === 'object') return own as Record<string, unknown>;
    const cause = x.cause as { claims?: unknown } | undefined;
    if (
      cause &&
      typeof cause === 'object' &&
      !(cause instanceof Error) &&
      cause.claims &&
      typeof cause.claims === 'object'
    )
      return cause.claims as Record<string, unknown>;
  }
  return undefined;
}
