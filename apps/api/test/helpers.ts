/**
 * Shared test helpers: an app over the test file's own database (a copy of the demo-seeded
 * template, test/file-database.ts), sign-in through the real login call, and calls through their
 * contract objects (`callApi`). Every request goes through `app.inject`.
 */
import { expect } from 'vitest';
import pg from 'pg';
import type { z } from 'zod';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  API_BASE,
  sessionApi,
  type EndpointBody,
  type EndpointDef,
  type EndpointResponse,
  type FieldError,
} from '@esm/contracts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { DEMO_PASSWORD } from '../src/db/seed.ts';
import { hashPassword } from '../src/lib/password.ts';
import { buildApp } from '../src/app.ts';
import type { Storage } from '../src/lib/storage.ts';
import { testDatabaseUrl } from './databases.ts';

export { testDatabaseUrl };

export const SESSION_SECRET = 'test-session-secret-0123456789-abcdefghij';
export { DEMO_PASSWORD };
/** The demo accounts' user types: demo<N> has type N. */
export const USER_TYPES_UNDER_TEST = [2, 3, 4, 5, 6, 7, 8, 9] as const;

export function testConfig(overrides: Partial<Config> = {}): Config {
  // no daily-jobs worker unless a test asks (dailyJobs, or mail): most tests never reach the cron's hour
  return loadConfig(
    {},
    {
      databaseUrl: testDatabaseUrl(),
      sessionSecret: SESSION_SECRET,
      logLevel: 'silent',
      dailyJobs: false,
      ...overrides,
    },
  );
}

export function openTestDatabase(): Promise<Database> {
  return openDatabase({ databaseUrl: testDatabaseUrl(), dataDir: '' });
}

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  close(): Promise<void>;
}

/**
 * An app over the test file's database. Pass `db` to build a second instance over the same client,
 * `storage` to keep a test file's uploads in a folder of its own.
 */
export async function buildTestApp(
  opts: { config?: Partial<Config>; db?: Database; storage?: Storage } = {},
): Promise<TestApp> {
  const db = opts.db ?? (await openTestDatabase());
  const app = await buildApp({
    config: testConfig(opts.config),
    db: db.prisma,
    dbKind: 'postgres',
    logger: false,
    storage: opts.storage,
  });
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      if (!opts.db) await db.close();
    },
  };
}

export const api = (p: string) => `${API_BASE}/${p.replace(/^\//, '')}`;

/**
 * The `esm_sid=...` cookie header a browser would hold after this response, or undefined.
 * Set-Cookie headers apply in order (a re-login first clears the old cookie, then sets the new).
 */
export function sessionCookie(res: Pick<LightMyRequestResponse, 'cookies'>): string | undefined {
  const c = res.cookies.filter((x) => x.name === 'esm_sid').at(-1);
  return c && c.value ? `esm_sid=${c.value}` : undefined;
}

/** The session id inside a signed `esm_sid=<sid>.<signature>` cookie header. */
export function sidOf(cookie: string): string {
  const value = decodeURIComponent(cookie.replace(/^esm_sid=/, ''));
  return value.slice(0, value.lastIndexOf('.'));
}

/** A raw POST to a path no contract declares (an unknown route, a walk over the registered routes); otherwise use callApi. */
export async function post(
  app: FastifyInstance,
  path: string,
  body?: unknown,
  cookie?: string,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: api(path),
    ...(body === undefined ? {} : { payload: body as object }),
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });
}

/**
 * What a refused call adds to the envelope: the field errors of a 400 (never empty there). Typed as
 * present because a test reads them only after checking the status.
 */
interface RefusalFields {
  errors: [FieldError, ...FieldError[]];
}

/**
 * The answer of a typed call: the inject response itself (headers, cookies, raw `body` for a
 * failure's message), its `status`, and `json()` typed by the endpoint's `response` — or, for a
 * call answering a file, by the envelope its failures come back in.
 */
export type ApiAnswer<E extends EndpointDef> = Omit<LightMyRequestResponse, 'json'> & {
  status: number;
  json(): AnswerBody<E> & RefusalFields;
};

/**
 * The envelope typed by the call's `response`. A file call's failures come back as a bare envelope;
 * a table of different calls (any EndpointDef) reads rows each test knows the shape of.
 */
type AnswerBody<E extends EndpointDef> = EndpointDef extends E
  ? { success: boolean; code: string; message: string; data: any; total?: number }
  : E['response'] extends z.ZodType
    ? EndpointResponse<E>
    : { success: boolean; code: string; message: string; data: unknown };

/**
 * The body a call takes, from its contract. A table of different calls (typed as any EndpointDef)
 * sends whatever each row holds: the server's own validation answers for it.
 */
export type CallBody<E extends EndpointDef> = EndpointDef extends E ? unknown : EndpointBody<E>;

export interface CallOptions {
  headers?: Record<string, string>;
  /** The client address the server sees (login limits, audit rows). */
  remoteAddress?: string;
}

/**
 * Sends `body` to the call `endpoint` declares (its contract object, e.g. `countersignApi.create`)
 * as the browser holding `session` (an `esm_sid=…` cookie header) would. The body is typed by the
 * endpoint's zod `body`: a test sending a malformed body on purpose says so with `unchecked()`.
 */
export async function callApi<E extends EndpointDef>(
  app: FastifyInstance,
  endpoint: E,
  body?: CallBody<E>,
  session?: string,
  opts: CallOptions = {},
): Promise<ApiAnswer<E>> {
  const res = await app.inject({
    method: 'POST',
    url: api(endpoint.path),
    ...(body === undefined ? {} : { payload: body as object }),
    headers: { ...(session ? { cookie: session } : {}), ...opts.headers },
    ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
  });
  return Object.assign(res, { status: res.statusCode }) as ApiAnswer<E>;
}

/**
 * `callApi` bound to an app and the options a test file sends with every call (its client address
 * and user agent, as the audit rows record them).
 */
export function apiCaller(app: FastifyInstance, opts: CallOptions = {}) {
  return <E extends EndpointDef>(endpoint: E, body?: CallBody<E>, session?: string, more: CallOptions = {}) =>
    callApi(app, endpoint, body, session, {
      remoteAddress: more.remoteAddress ?? opts.remoteAddress,
      headers: { ...opts.headers, ...more.headers },
    });
}

/** A body not checked against the call's contract: one a test sends malformed on purpose (a missing field, a wrong type). */
export const unchecked = (body: unknown) => body as never;

/** What the legacy page posts to user/logout: the call takes no body and ignores any. */
export const LEGACY_LOGOUT_BODY = unchecked({ a: 1 });

/** Signs in through user/login and returns the session cookie header. */
export async function login(app: FastifyInstance, account: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await callApi(app, sessionApi.login, { account, password });
  if (res.statusCode !== 200 || res.json().code !== '10000000') {
    throw new Error(`login ${account} failed: ${res.statusCode} ${res.body}`);
  }
  const cookie = sessionCookie(res);
  if (!cookie) throw new Error(`login ${account} set no session cookie`);
  return cookie;
}

/** Creates a throwaway user (unique account) for tests that disable, retype or lock accounts. */
export async function createUser(
  db: Database,
  data: { type?: number; supplierCode?: string | null; password?: string; prefix?: string } = {},
): Promise<{ id: number; account: string; password: string }> {
  const password = data.password ?? DEMO_PASSWORD;
  const account = `${data.prefix ?? 't'}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const type = data.type ?? 3;
  const user = await db.prisma.user.create({
    data: {
      account,
      name: `测试用户${type}`,
      nick: `测试昵称${type}`,
      type,
      supplierCode: data.supplierCode ?? (type === 2 || type === 4 ? 'S001' : null),
      passwordHash: await hashPassword(password),
    },
  });
  return { id: user.id, account, password };
}

/** Removes a throwaway user with its sessions, login attempts and visits. */
export async function deleteUser(db: Database, account: string): Promise<void> {
  const user = await db.prisma.user.findUnique({ where: { account } });
  await db.prisma.loginAttempt.deleteMany({ where: { account } });
  if (!user) return;
  await db.prisma.session.deleteMany({ where: { userId: user.id } });
  await db.prisma.visitEvent.deleteMany({ where: { userId: user.id } });
  await db.prisma.user.delete({ where: { id: user.id } });
}

/** Chinese text somewhere in the string (the portal speaks zh-CN). */
export const hasChinese = (s: unknown) => typeof s === 'string' && /[\u4e00-\u9fff]/.test(s);

/** The text of each page of a PDF, as pdf.js extracts it (loaded by the tests that read PDFs only). */
export async function pdfPages(bytes: Buffer): Promise<string[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join('\n'));
  }
  await pdf.destroy();
  return pages;
}

/**
 * Holds back every insert into `table` (a second connection keeps `LOCK TABLE … IN SHARE MODE`
 * open; reads pass) until `release`, so that a call writing that table stops inside its
 * transaction after its earlier writes — an edit in flight — while the test sends another call
 * beside it. Which call waits where is read off Postgres (`pg_blocking_pids`), not timed.
 */
export async function holdInserts(table: string) {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${table} IN SHARE MODE`);
  const me = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const waitingOn = async (pid: number) =>
    // pg_locks, not pg_stat_activity: the latter is a snapshot taken once per transaction, and this
    // connection stays in its transaction while it holds the lock
    (
      await client.query<{ pid: number }>(
        'SELECT DISTINCT pid FROM pg_locks WHERE NOT granted AND $1 = ANY(pg_blocking_pids(pid))',
        [pid],
      )
    ).rows.map((r) => r.pid);
  /** The first backend found waiting on `pid`, once there is one. */
  const firstWaitingOn = async (pid: number) => {
    let found: number | undefined;
    await expect.poll(async () => (found = (await waitingOn(pid))[0]), { timeout: 30_000, interval: 20 }).toBeDefined();
    return found!;
  };
  return {
    /** The backend of the call now stopped at its insert into `table`. */
    writer: () => firstWaitingOn(me),
    /** Resolves once another call waits on `pid` (a row it locked or wrote). */
    waitBehind: (pid: number) => firstWaitingOn(pid),
    async release() {
      await client.query('COMMIT');
      await client.end();
    },
  };
}
