/**
 * The only place that reads the environment (design §9). Everything else receives a Config.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXPORT_MAX_ROWS, UPLOAD_MAX_BYTES } from '@esm/contracts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const paths = {
  root,
  schema: path.join(root, 'prisma/schema.prisma'),
  migrations: path.join(root, 'prisma/migrations'),
  webDist: path.join(root, 'apps/web/dist'),
};

export interface Config {
  port: number;
  host: string;
  /** A Postgres server; when absent the embedded PGlite database under dataDir is used. */
  databaseUrl?: string;
  dataDir: string;
  /** Where uploaded files are kept (content-addressed). */
  storageDir: string;
  sessionSecret: string;
  /** Idle lifetime of a session; each request extends it. */
  sessionMaxAgeMs: number;
  /** Cookie `Secure` flag: on behind HTTPS. */
  secureCookies: boolean;
  /** Apply pending migrations at start. */
  migrateOnStart: boolean;
  /** Seed demo accounts and menus when the database has no users yet. */
  seedDemo: boolean;
  /** Where the session dialogs (codes 201-205) send the user: the company home page. */
  companyHomeUrl: string;
  logLevel: string;
  /** Trust X-Forwarded-For from a reverse proxy (for the client IP in logs). */
  trustProxy: boolean;
  /** Login rate limit: failed attempts allowed per account+IP, and per IP, in the window. */
  loginMaxFailuresPerAccount: number;
  loginMaxFailuresPerIp: number;
  loginWindowMs: number;
  /** Upload size limit and export row cap: the contracts' UPLOAD_MAX_BYTES / EXPORT_MAX_ROWS (the web
   * checks the same figures); not read from the environment, overridden only by tests. */
  uploadMaxBytes: number;
  exportMaxRows: number;
}

function bool(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  return ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
}

function int(v: string | undefined, dflt: number): number {
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isFinite(n) ? n : dflt;
}

/** A secret that survives restarts: from the environment, else generated once into dataDir. */
function sessionSecret(env: NodeJS.ProcessEnv, dataDir: string): string {
  if (env.SESSION_SECRET) {
    if (env.SESSION_SECRET.length < 32) throw new Error('SESSION_SECRET must be at least 32 characters');
    return env.SESSION_SECRET;
  }
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = path.resolve(root, env.DATA_DIR ?? '.data');
  const databaseUrl = env.DATABASE_URL || undefined;
  return {
    port: int(env.PORT, 3000),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl,
    dataDir,
    storageDir: path.resolve(root, env.STORAGE_DIR ?? path.join(dataDir, 'files')),
    sessionSecret: overrides.sessionSecret ?? sessionSecret(env, dataDir),
    sessionMaxAgeMs: int(env.SESSION_MAX_AGE_MINUTES, 120) * 60_000,
    secureCookies: bool(env.SECURE_COOKIES, false),
    migrateOnStart: bool(env.MIGRATE_ON_START, true),
    seedDemo: bool(env.SEED_DEMO, !databaseUrl),
    companyHomeUrl: env.COMPANY_HOME_URL ?? '/esm/login',
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: bool(env.TRUST_PROXY, false),
    loginMaxFailuresPerAccount: int(env.LOGIN_MAX_FAILURES_PER_ACCOUNT, 5),
    loginMaxFailuresPerIp: int(env.LOGIN_MAX_FAILURES_PER_IP, 30),
    loginWindowMs: int(env.LOGIN_WINDOW_MINUTES, 15) * 60_000,
    uploadMaxBytes: UPLOAD_MAX_BYTES,
    exportMaxRows: EXPORT_MAX_ROWS,
    ...overrides,
  };
}
