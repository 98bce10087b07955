/**
 * Playwright's web server: a fresh Postgres database, then the real server on it (migrated and
 * seeded with the demo accounts at start, exactly as an operator's first start).
 * With E2E_OIDC=true, a local OpenID provider as the company sign-in (apps/api/test/idp.ts).
 */
import { e2eDatabaseUrl, recreateDatabase } from './db.ts';
import { IDP_CLIENT, startIdp } from '../apps/api/test/idp.ts';

await recreateDatabase();
process.env.DATABASE_URL = e2eDatabaseUrl();
process.env.SEED_DEMO = 'true';
process.env.SESSION_SECRET ??= 'e2e-session-secret-that-is-long-enough-0123456789';
// E2E_OIDC: the company's identity provider (issue 15) — a real OpenID provider on 127.0.0.1 next
// to the portal, so the login page offers 从公司门户登录 and e2e/oidc.spec.ts signs in through it.
if (process.env.E2E_OIDC === 'true') {
  const port = Number(process.env.PORT ?? 3300);
  const portal = `http://127.0.0.1:${port}`;
  const idp = await startIdp({ port: port + 1000, redirectUris: [`${portal}/esm`], postLogoutRedirectUris: [`${portal}/esm/login`] });
  Object.assign(process.env, {
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: IDP_CLIENT.id,
    OIDC_CLIENT_SECRET: IDP_CLIENT.secret,
    OIDC_REDIRECT_URI: `${portal}/esm`,
    OIDC_SCOPES: 'openid profile esm',
    OIDC_TYPE_CLAIM: 'esm_user_type',
    OIDC_SUPPLIER_CLAIM: 'esm_supplier_code',
  });
}
await import('../apps/api/src/server.ts');
