/**
 * Playwright's web server: a fresh Postgres database, then the real server on it (migrated and
 * seeded with the demo accounts at start, exactly as an operator's first start) — the built bundle
 * an operator runs (apps/api/dist/server.mjs, which bundles part of node_modules as well:
 * apps/api/scripts/build.mjs), so `pnpm build` (part of `pnpm test`) comes first, as for the web.
 * With E2E_OIDC=true, a local OpenID provider as the company sign-in (apps/api/test/idp.ts).
 */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { e2eDatabaseName, e2eDatabaseUrl, recreateDatabase } from './db.ts';
import { IDP_CLIENT, startIdp } from '../apps/api/test/idp.ts';
import { smtpRecorder } from '../apps/api/test/smtp-recorder.ts';
import { e2eMailDir } from './mail.ts';

const bundle = new URL('../apps/api/dist/server.mjs', import.meta.url);
/** The newest modification time of a file below `dir` (0 when there is none). */
const newest = (dir: URL): number =>
  Math.max(
    0,
    ...readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => statSync(new URL(name, dir)).mtimeMs),
  );
const built = statSync(bundle, { throwIfNoEntry: false })?.mtimeMs;
// a bundle older than the sources would test yesterday's server: say so instead
if (built === undefined) throw new Error('apps/api/dist/server.mjs is missing: run `pnpm build` before the e2e tests');
for (const src of ['../apps/api/src/', '../packages/contracts/src/']) {
  if (newest(new URL(src, import.meta.url)) > built)
    throw new Error(
      `${src.slice(3)} changed after apps/api/dist/server.mjs was built: run \`pnpm build\` before the e2e tests`,
    );
}

await recreateDatabase();
process.env.DATABASE_URL = e2eDatabaseUrl();
// A file store belongs to one database (its marker refuses another): each run's fresh database
// gets a fresh store of its own.
process.env.STORAGE_DIR = path.join(tmpdir(), `esm-e2e-files-${e2eDatabaseName}`);
rmSync(process.env.STORAGE_DIR, { recursive: true, force: true });
process.env.SEED_DEMO = 'true';
process.env.SESSION_SECRET ??= 'e2e-session-secret-that-is-long-enough-0123456789';
// Notification mail: a real SMTP server beside the portal that files each mail it accepts where a
// journey reads it (e2e/mail.ts); the links in mail point at this portal.
const mailDir = e2eMailDir();
rmSync(mailDir, { recursive: true, force: true });
mkdirSync(mailDir, { recursive: true });
let mails = 0;
const smtp = await smtpRecorder((m) =>
  writeFileSync(path.join(mailDir, `${String(++mails).padStart(5, '0')}.json`), JSON.stringify(m)),
);
process.env.SMTP_URL = smtp.url;
process.env.PUBLIC_URL = `http://127.0.0.1:${process.env.PORT ?? 3300}`;
// E2E_OIDC: the company's identity provider — a real OpenID provider on 127.0.0.1 next
// to the portal, so the login page offers 从公司门户登录 and e2e/oidc.spec.ts signs in through it.
if (process.env.E2E_OIDC === 'true') {
  const port = Number(process.env.PORT ?? 3300);
  const portal = `http://127.0.0.1:${port}`;
  const idp = await startIdp({
    port: port + 1000,
    redirectUris: [`${portal}/esm`],
    postLogoutRedirectUris: [`${portal}/esm/login`],
  });
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
