/**
 * The only place that reads the environment's settings, with paths.ts (the part a start needs
 * before anything else is loaded). Everything else receives a Config; an entry point (server.ts,
 * the CLIs) only hands `process.env` over to them, and a child process (pg_dump) inherits it whole.
 * test/env-readers.test.ts holds this.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { EMPOWER_DEFAULTS, EXPORT_MAX_ROWS, LOGIN_PATH, UPLOAD_MAX_BYTES } from '@esm/contracts';
import type { S3Settings } from './lib/storage/s3.ts';
import { dataDirOf, databaseUrlOf, flag, paths, seedDemoOf, storageDirOf } from './paths.ts';

export { paths };

export interface Config {
  port: number;
  host: string;
  /** A Postgres server; when absent the embedded PGlite database under dataDir is used. */
  databaseUrl?: string;
  dataDir: string;
  /** Where uploaded files are kept (content-addressed) when no S3 bucket is configured. */
  storageDir: string;
  /** An S3-compatible bucket for the uploaded files instead of storageDir (S3_*). */
  s3?: S3Settings;
  /** STORAGE_ADOPT: this database takes over a store whose marker names another database (after a restore). */
  storageAdopt: boolean;
  /** How long the sweep keeps an unreferenced file in quarantine before removing it. */
  storageQuarantineDays: number;
  sessionSecret: string;
  /** Idle lifetime of a session; each request extends it. */
  sessionMaxAgeMs: number;
  /** Absolute lifetime of a session from its login, however active it is. */
  sessionAbsoluteMs: number;
  /** Cookie `Secure` flag: on behind HTTPS. */
  secureCookies: boolean;
  /** Apply pending migrations at start. */
  migrateOnStart: boolean;
  /** Seed demo accounts and menus when the database has no users yet. */
  seedDemo: boolean;
  /** Where the session dialogs (codes 201-205) send the user: the company home page. */
  companyHomeUrl: string;
  /**
   * The company site that the legacy portal's relative links (logo, 帮助, the footer's agreements) belong
   * to, without a trailing slash; undefined: a standalone deployment, where those links are hidden.
   */
  companySiteUrl?: string;
  logLevel: string;
  /**
   * The reverse proxies whose X-Forwarded-For is believed: false (none), or their addresses /
   * CIDRs / proxy-addr names (loopback, linklocal, uniquelocal). Never "any" (see trustProxyOf).
   */
  trustProxy: false | string[];
  /** OpenAPI documentation without signing in (otherwise an internal user's session). */
  apiDocsPublic: boolean;
  /**
   * Login limits (modules/session/limits.ts): failed password checks allowed per account (from
   * addresses it never signed in from; from one it did, per that pair), and per address, in the window.
   */
  loginMaxFailuresPerAccount: number;
  loginMaxFailuresPerIp: number;
  loginWindowMs: number;
  /**
   * How long a taken login slot may wait for its password check to settle. It counts as a failure
   * meanwhile; past it, it no longer counts anywhere and its check answers 503 (an outage that cut
   * the attempt must not lock the account out on another process). Not read from the environment.
   */
  loginCheckMs: number;
  /** Upload size limit and export row cap: the contracts' UPLOAD_MAX_BYTES / EXPORT_MAX_ROWS (the web
   * checks the same figures); not read from the environment, overridden only by tests. */
  uploadMaxBytes: number;
  exportMaxRows: number;
  /** Drawing authorization: the longest period an application may ask for (days, both ends
   * included), and how many days before its end a grant counts as expiring soon. */
  empowerMaxPeriodDays: number;
  empowerExpiringDays: number;
  /** Where `pnpm db:backup` writes a new backup (a folder per backup), and how many it keeps there. */
  backupDir: string;
  backupKeep: number;
  /** Sign-in from the company home page (OpenID Connect); undefined: not configured, password form only. */
  oidc?: OidcConfig;
  /** Who may read /esm-server/metrics without the token: addresses / CIDRs / proxy-addr names (TRUST_PROXY's format); [] for nobody. */
  metricsAllow: string[];
  /** A bearer token that opens /esm-server/metrics from anywhere; undefined: addresses only. */
  metricsToken?: string;
  /** How long a stop (SIGTERM/SIGINT) waits for requests in flight before it cuts them (start.ts). */
  shutdownGraceMs: number;
  /** How many files are stamped at once (lib/stamp-queue.ts); the rest wait in a queue. */
  stampConcurrency: number;
  /** PG_DUMP / PG_RESTORE: the client tools db:backup and db:restore run against a Postgres server. */
  pgDump: string;
  pgRestore: string;
  /** Notification mail (SMTP_URL …); undefined: mail is off, the in-app centre still works. */
  mail?: MailConfig;
  /**
   * DAILY_JOBS: this process takes part in the daily scheduled runs (reminders; with mail, digests)
   * even when mail is off. On by default; the queue's cron runs each once a day across replicas.
   */
  dailyJobs: boolean;
}

/** Notification mail over SMTP (modules/notifications). */
export interface MailConfig {
  /** nodemailer's connection URL: smtp://user:pass@host:587 or smtps://…:465 */
  smtpUrl: string;
  /** The From header: "ESM 图纸档案门户 <esm@example.com>". */
  from: string;
  /** The portal's address as a mail reader's browser reaches it; links are this + /esm/… */
  publicUrl: string;
  /** Tries per message before it is marked failed (retries back off exponentially). */
  maxTries: number;
  /** MAIL_BOUNCE_TOKEN: the Bearer token of the bounce webhook; undefined: no webhook (404). */
  bounceToken?: string;
}

/**
 * SMTP_URL, MAIL_FROM, PUBLIC_URL: mail on when SMTP_URL is set. Its outbox is a job queue in the
 * Postgres server (graphile-worker), shared by every api process: the embedded database (one
 * process, no server to connect to) has none, so SMTP_URL without DATABASE_URL stops the start
 * rather than accepting messages it would never send.
 */
export function mailOf(env: NodeJS.ProcessEnv, port: number): MailConfig | undefined {
  const smtpUrl = env.SMTP_URL?.trim();
  if (!smtpUrl) return undefined;
  if (!URL.canParse(smtpUrl) || !/^smtps?:$/.test(new URL(smtpUrl).protocol))
    throw new Error(
      `SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example.com:587, got "${new URL(smtpUrl).protocol}…"`,
    );
  if (!databaseUrlOf(env))
    throw new Error(
      'SMTP_URL needs DATABASE_URL: notification mail is queued in the Postgres server (the embedded database has no queue); unset SMTP_URL to run without mail',
    );
  const publicUrl = (env.PUBLIC_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, '');
  if (!URL.canParse(publicUrl) || !/^https?:$/.test(new URL(publicUrl).protocol))
    throw new Error(`PUBLIC_URL must be an http(s) URL such as https://esm.example.com, got "${publicUrl}"`);
  const bounceToken = env.MAIL_BOUNCE_TOKEN?.trim() || undefined;
  if (bounceToken !== undefined && (bounceToken.length < 32 || /\s/.test(bounceToken)))
    throw new Error('MAIL_BOUNCE_TOKEN must be at least 32 characters without spaces (e.g. openssl rand -hex 24)');
  return {
    smtpUrl,
    from: env.MAIL_FROM?.trim() || 'ESM 图纸档案门户 <esm@localhost>',
    publicUrl,
    maxTries: positive(env, 'MAIL_MAX_TRIES', 8),
    bounceToken,
  };
}

/** The portal as an OpenID Connect relying party (modules/session/oidc.ts). */
export interface OidcConfig {
  /** The provider's issuer identifier (its discovery document lives under it). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Where the provider sends the browser back: the portal's /esm (or any page under it). */
  redirectUri: string;
  scopes: string;
  /** Which claims give the portal account, the user type (2..9) and the supplier code. */
  accountClaim: string;
  typeClaim?: string;
  supplierClaim?: string;
  /** Name shown for an account created on first sign-in. */
  nameClaim: string;
  /** Create an unknown account on first sign-in from the claims (type and supplier required). */
  createUsers: boolean;
  /** Where the provider's sign-out returns to (default: the company home page). */
  postLogoutRedirectUri?: string;
}

/** OIDC_*: all of issuer, client id and redirect URI, or none (the portal as today). */
export function oidcOf(env: NodeJS.ProcessEnv): OidcConfig | undefined {
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const redirectUri = env.OIDC_REDIRECT_URI?.trim();
  if (!issuer && !clientId && !redirectUri) return undefined;
  if (!issuer || !clientId || !redirectUri)
    throw new Error('OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_REDIRECT_URI must be set together (or none of them)');
  for (const [name, v] of [
    ['OIDC_ISSUER', issuer],
    ['OIDC_REDIRECT_URI', redirectUri],
  ] as const) {
    if (!URL.canParse(v) || !/^https?:$/.test(new URL(v).protocol))
      throw new Error(`${name} must be an http(s) URL, got "${v}"`);
  }
  const opt = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);
  return {
    issuer,
    clientId,
    clientSecret: env.OIDC_CLIENT_SECRET ?? '',
    redirectUri,
    scopes: opt(env.OIDC_SCOPES) ?? 'openid profile',
    accountClaim: opt(env.OIDC_ACCOUNT_CLAIM) ?? 'preferred_username',
    typeClaim: opt(env.OIDC_TYPE_CLAIM),
    supplierClaim: opt(env.OIDC_SUPPLIER_CLAIM),
    nameClaim: opt(env.OIDC_NAME_CLAIM) ?? 'name',
    createUsers: bool(env.OIDC_CREATE_USERS, false),
    postLogoutRedirectUri: opt(env.OIDC_POST_LOGOUT_REDIRECT_URI),
  };
}

const bool = flag;

/** COMPANY_SITE_URL: an http(s) address (the links are built by appending the legacy portal's paths to it). */
export function companySiteUrlOf(v: string | undefined): string | undefined {
  const raw = v?.trim();
  if (!raw) return undefined;
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol))
    throw new Error(`COMPANY_SITE_URL must be an http(s) URL such as https://www.example.com, got "${raw}"`);
  if (new URL(raw).search || new URL(raw).hash)
    throw new Error(
      `COMPANY_SITE_URL must not carry a query or fragment (the links' own paths are appended to it), got "${raw}"`,
    );
  return raw.replace(/\/+$/, '');
}

/**
 * S3_*: the bucket for uploaded files. Unset, the local folder is used. Any of them set means a
 * bucket is meant: S3_BUCKET is then required, and the access key id and secret come together (or
 * neither: the SDK's own credential chain, e.g. an instance role).
 */
export function s3Of(env: NodeJS.ProcessEnv): S3Settings | undefined {
  const v = (name: string) => env[name]?.trim() || undefined;
  const names = [
    'S3_ENDPOINT',
    'S3_BUCKET',
    'S3_REGION',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
    'S3_FORCE_PATH_STYLE',
  ];
  const set = names.filter((n) => v(n));
  if (!set.length) return undefined;
  const bucket = v('S3_BUCKET');
  if (!bucket)
    throw new Error(
      `S3_BUCKET is not set, but ${set.join(', ')} ${set.length > 1 ? 'are' : 'is'}: set S3_BUCKET to use an S3 bucket for the uploaded files, or unset the S3_* variables to use the local folder`,
    );
  const accessKeyId = v('S3_ACCESS_KEY_ID');
  const secretAccessKey = v('S3_SECRET_ACCESS_KEY');
  if (!accessKeyId !== !secretAccessKey)
    throw new Error(
      `${accessKeyId ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} is not set: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together`,
    );
  const endpoint = v('S3_ENDPOINT');
  if (endpoint && (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol)))
    throw new Error(`S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  return {
    ...(endpoint ? { endpoint } : {}),
    bucket,
    region: v('S3_REGION') ?? 'us-east-1',
    ...(accessKeyId ? { accessKeyId, secretAccessKey } : {}),
    // MinIO, Ceph and most self-hosted stores want path-style URLs; AWS itself wants virtual hosts
    forcePathStyle: bool(env.S3_FORCE_PATH_STYLE, Boolean(endpoint)),
  };
}

function int(v: string | undefined, dflt: number): number {
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isFinite(n) ? n : dflt;
}

const PROXY_ADDR_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IP address, an address/prefix (CIDR) or netmask, or one of proxy-addr's names. */
function isProxyAddress(v: string): boolean {
  if (PROXY_ADDR_NAMES.has(v)) return true;
  const [addr = '', prefix, ...rest] = v.split('/');
  const kind = isIP(addr);
  if (!kind || rest.length) return false;
  if (prefix === undefined) return true;
  if (kind === 4 && isIP(prefix) === 4) return true; // 10.0.0.0/255.0.0.0
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (kind === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: which peers may tell us the client's address (X-Forwarded-For). Only a list of
 * proxy addresses is accepted: `true` would believe any client that sends the header (an
 * attacker then picks the address the login limits, the logs and the watermarks see), and a hop
 * count cannot tell a proxy from a client that reached the port directly — Fastify 5 itself
 * ignores numeric trustProxy for that reason. Both stop the start with a message saying so.
 */
export function trustProxyOf(v: string | undefined): false | string[] {
  const raw = (v ?? '').trim();
  if (raw === '' || ['false', '0', 'no', 'off'].includes(raw.toLowerCase())) return false;
  const help =
    'set TRUST_PROXY to the address(es) of your reverse proxy, comma separated (e.g. 10.0.0.5 or 172.28.0.0/24; loopback for a proxy on this host)';
  if (['true', 'yes', 'on', '*', 'all'].includes(raw.toLowerCase())) {
    throw new Error(`TRUST_PROXY=${raw} would trust an X-Forwarded-For sent by anyone: ${help}`);
  }
  if (/^\d+$/.test(raw)) {
    throw new Error(
      `TRUST_PROXY=${raw}: a hop count cannot tell the proxy from a client that connects directly (Fastify ignores it); ${help}`,
    );
  }
  const list = raw
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const bad = list.filter((x) => !isProxyAddress(x));
  if (bad.length) throw new Error(`TRUST_PROXY: not an IP address or CIDR: ${bad.join(', ')}; ${help}`);
  return list;
}

/**
 * METRICS_ALLOW: the addresses that may scrape the metrics, in TRUST_PROXY's format. Unset: this
 * host only (loopback), so a fresh install never shows its figures to the network; `none`: the
 * token only.
 */
export function metricsAllowOf(v: string | undefined): string[] {
  const raw = (v ?? '').trim();
  if (raw === '') return ['loopback'];
  if (raw.toLowerCase() === 'none') return [];
  const list = raw
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const bad = list.filter((x) => !isProxyAddress(x));
  if (bad.length)
    throw new Error(
      `METRICS_ALLOW: not an IP address or CIDR: ${bad.join(', ')}; list the addresses of your Prometheus, comma separated (e.g. 10.0.0.7 or 172.28.0.0/24; loopback for this host; none for the token only)`,
    );
  return list;
}

/** METRICS_TOKEN: long enough that it cannot be guessed by trying (it opens the metrics from any address). */
export function metricsTokenOf(v: string | undefined): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (v.length < 16 || /\s/.test(v))
    throw new Error('METRICS_TOKEN must be at least 16 characters without spaces (e.g. openssl rand -hex 24)');
  return v;
}

/** A whole number ≥ 1 (a count of days): anything else is a configuration mistake, said at start. */
function positive(env: NodeJS.ProcessEnv, name: string, dflt: number): number {
  const v = env[name];
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number ≥ 1, got "${v}"`);
  return n;
}

/** A secret that survives restarts: from the environment, else (embedded database only) generated once into dataDir. */
function sessionSecret(env: NodeJS.ProcessEnv, dataDir: string): string {
  if (env.SESSION_SECRET) {
    if (env.SESSION_SECRET.length < 32) throw new Error('SESSION_SECRET must be at least 32 characters');
    return env.SESSION_SECRET;
  }
  // Several processes on one Postgres server each generating their own secret would not accept
  // each other's cookies: behind a load balancer users were signed out at random.
  if (databaseUrlOf(env))
    throw new Error(
      'SESSION_SECRET is not set: with DATABASE_URL every api process must use the same secret (32 or more characters), or sessions signed by one are refused by another',
    );
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = dataDirOf(env);
  const databaseUrl = databaseUrlOf(env);
  return {
    port: int(env.PORT, 3000),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl,
    dataDir,
    storageDir: storageDirOf(env, dataDir),
    s3: s3Of(env),
    storageAdopt: bool(env.STORAGE_ADOPT, false),
    storageQuarantineDays: positive(env, 'STORAGE_QUARANTINE_DAYS', 30),
    sessionSecret: overrides.sessionSecret ?? sessionSecret(env, dataDir),
    sessionMaxAgeMs: int(env.SESSION_MAX_AGE_MINUTES, 120) * 60_000,
    sessionAbsoluteMs: int(env.SESSION_ABSOLUTE_HOURS, 12) * 3_600_000,
    secureCookies: bool(env.SECURE_COOKIES, false),
    migrateOnStart: bool(env.MIGRATE_ON_START, true),
    seedDemo: seedDemoOf(env),
    companyHomeUrl: env.COMPANY_HOME_URL ?? LOGIN_PATH,
    companySiteUrl: companySiteUrlOf(env.COMPANY_SITE_URL),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    apiDocsPublic: bool(env.API_DOCS_PUBLIC, false),
    loginMaxFailuresPerAccount: int(env.LOGIN_MAX_FAILURES_PER_ACCOUNT, 5),
    loginMaxFailuresPerIp: int(env.LOGIN_MAX_FAILURES_PER_IP, 30),
    loginWindowMs: int(env.LOGIN_WINDOW_MINUTES, 15) * 60_000,
    loginCheckMs: 10_000,
    uploadMaxBytes: UPLOAD_MAX_BYTES,
    exportMaxRows: EXPORT_MAX_ROWS,
    empowerMaxPeriodDays: positive(env, 'EMPOWER_MAX_PERIOD_DAYS', EMPOWER_DEFAULTS.maxPeriodDays),
    empowerExpiringDays: positive(env, 'EMPOWER_EXPIRING_DAYS', EMPOWER_DEFAULTS.expiringDays),
    backupDir: path.resolve(paths.root, env.BACKUP_DIR || path.join(dataDir, 'backups')),
    backupKeep: positive(env, 'BACKUP_KEEP', 7),
    oidc: oidcOf(env),
    metricsAllow: metricsAllowOf(env.METRICS_ALLOW),
    metricsToken: metricsTokenOf(env.METRICS_TOKEN),
    shutdownGraceMs: positive(env, 'SHUTDOWN_GRACE_SECONDS', 25) * 1000,
    stampConcurrency: positive(env, 'STAMP_CONCURRENCY', 2),
    pgDump: env.PG_DUMP || 'pg_dump',
    pgRestore: env.PG_RESTORE || 'pg_restore',
    mail: mailOf(env, int(env.PORT, 3000)),
    dailyJobs: bool(env.DAILY_JOBS, true),
    ...overrides,
  };
}
