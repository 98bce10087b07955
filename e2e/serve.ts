/**
 * Playwright's web server: a fresh Postgres database, then the real server on it (migrated and
 * seeded with the demo accounts at start, exactly as an operator's first start) — the built bundle
 * an operator runs (apps/api/dist/server.mjs, which bundles part of node_modules as well:
 * apps/api/scripts/build.mjs), so `pnpm build` (part of `pnpm test`) comes first, as for the web.
 * With E2E_OIDC=true, a local OpenID provider as the company sign-in (apps/api/test/idp.ts).
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { e2eDatabaseName, e2eDatabaseUrl, recreateDatabase } from './db.ts';
import { IDP_CLIENT, startIdp } from '../apps/api/test/idp.ts';

const bundle = new URL('../apps/api/dist/server.mjs', import.meta.url);
/** The newest modification time of a file below `dir` (0 when there is none). */
const newest = (dir: URL): number =>
  Math.max(0, ...readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => statSync(new URL(name, dir)).mtimeMs));
const built = statSync(bundle, { throwIfNoEntry: false })?.mtimeMs;
// a bundle older than the sources would test yesterday's server: say so instead
if (built === undefined) throw new Error('apps/api/dist/server.mjs is missing: run `pnpm build` before the e2e tests');
for (const src of ['../apps/api/src/', '../packages/contracts/src/']) {
  if (newest(new URL(src, import.meta.url)) > built) throw new Error(`${src.slice(3)} changed after apps/api/dist/server.mjs was built: run \`pnpm build\` before the e2e tests`);
}

await recreateDatabase();
process.env.DATABASE_URL = e2eDatabaseUrl();
// A file store belongs to one database (its marker refuses another): each run's fresh database
// gets a fresh store of its own.
process.env.STORAGE_DIR = path.join(tmpdir(), `esm-e2e-files-${e2eDatabaseName}`);
rmSync(process.env.STORAGE_DIR, { recursive: true, force: true });
process.env.SEED_DEMO = 'true';
process.env.SESSION_SECRET ??= 'e2e-session-secret-that-is-long-enough-0123456789';
// E2E_OIDC: the company's identity provider — a real OpenID provider on 127.0.0.1 next
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
    // a deployment inside the company's site: the logo, 帮助 and the footer's agreements lead there
    COMPANY_SITE_URL: 'https://www.example.com',
  });
}
await import(bundle.href);
