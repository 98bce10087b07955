/**
 * Reference data (the menu) for every installation, and demo data (suppliers and the accounts
 * demo2 … demo9, password Esm@2026) for demos and tests only. Each domain's demo rows live with
 * the domain (`modules/<domain>/demo.ts`); the seed composes them in order, each step reading
 * what the steps before it wrote.
 */
import type { Db } from './database.ts';
import type { SqlRunner } from './migrations.ts';
import { hashPassword } from '../lib/password.ts';
import { MENU } from './menu-data.ts';
import type { Storage } from '../lib/storage.ts';
import { seedAgreement } from './seed-agreement.ts';
import { seedDemoNotices } from '../modules/notices/demo.ts';
import { startPhase } from '../lib/start-trace.ts';
import { insertRows, insertRowsReturningIds } from './demo-batch.ts';
import { withAdvisoryLock } from './advisory-lock.ts';

/** The advisory lock key of the seed (the migrations' is 72616401). */
export const SEED_LOCK = 72616402;

export const DEMO_PASSWORD = 'Esm@2026';

export const DEMO_SUPPLIERS = [
  { code: 'S001', name: '青岛海达精密机械有限公司' },
  { code: 'S002', name: '宁波东方电子科技有限公司' },
];

export const DEMO_USERS = [
  {
    account: 'demo2',
    type: 2,
    name: '张伟',
    nick: '海达精密-张伟',
    supplierCode: 'S001',
    mobile: '13800000002',
    email: 'demo2@example.com',
  },
  {
    account: 'demo3',
    type: 3,
    name: '李娜',
    nick: '李娜',
    supplierCode: null,
    mobile: '13800000003',
    email: 'demo3@example.com',
  },
  {
    account: 'demo4',
    type: 4,
    name: '王强',
    nick: '东方电子-王强',
    supplierCode: 'S002',
    mobile: '13800000004',
    email: 'demo4@example.com',
  },
  {
    account: 'demo5',
    type: 5,
    name: '刘洋',
    nick: '刘洋',
    supplierCode: null,
    mobile: '13800000005',
    email: 'demo5@example.com',
  },
  {
    account: 'demo6',
    type: 6,
    name: '陈静',
    nick: '陈静',
    supplierCode: null,
    mobile: '13800000006',
    email: 'demo6@example.com',
  },
  {
    account: 'demo7',
    type: 7,
    name: '杨磊',
    nick: '杨磊',
    supplierCode: null,
    mobile: '13800000007',
    email: 'demo7@example.com',
  },
  {
    account: 'demo8',
    type: 8,
    name: '赵敏',
    nick: '赵敏',
    supplierCode: null,
    mobile: '13800000008',
    email: 'demo8@example.com',
  },
  {
    account: 'demo9',
    type: 9,
    name: '黄涛',
    nick: '黄涛',
    supplierCode: null,
    mobile: '13800000009',
    email: 'demo9@example.com',
  },
];

interface StoredMenu {
  entries: {
    id: number;
    cn: string;
    name: string;
    icon: string | null;
    router: string;
    mpid: number | null;
    sort: number;
  }[];
  grants: { userType: number; menuId: number }[];
}

/** What a start looks at before it writes anything: the stored menu, and whether any agreement and any user exist. */
interface StartState extends StoredMenu {
  agreements: number;
  users: number;
}

/** What the start state is read through: Prisma's client, or the driver before Prisma is needed (db/sql-runner.ts). */
export type StateReader = Pick<SqlRunner, '$queryRawUnsafe'>;

/**
 * The start's checks in one raw statement: as Prisma model queries they were four
 * statements and, on a warm start, the process's first model queries — ~150–200 ms of CPU for
 * Prisma's first query compilation (its schema graph, then each query shape), paid before the
 * server could listen. The first request that needs a model query pays that compilation instead.
 */
async function startState(db: StateReader): Promise<StartState> {
  const [row] = await db.$queryRawUnsafe<
    { entries: unknown; grants: unknown; agreements: number; users: number }[]
  >(`SELECT
      (SELECT coalesce(json_agg(json_build_object('id', id, 'cn', cn, 'name', name, 'icon', icon, 'router', router, 'mpid', mpid, 'sort', sort)), '[]') FROM "menu_entry")::text AS entries,
      (SELECT coalesce(json_agg(json_build_object('userType', user_type, 'menuId', menu_id)), '[]') FROM "menu_grant")::text AS grants,
      (SELECT count(*)::int FROM (SELECT 1 FROM "keepsecret_agreement" LIMIT 1) a) AS agreements,
      (SELECT count(*)::int FROM (SELECT 1 FROM "app_user" LIMIT 1) u) AS users`);
  if (!row) throw new Error('start state: no row');
  return {
    entries: JSON.parse(String(row.entries)) as StoredMenu['entries'],
    grants: JSON.parse(String(row.grants)) as StoredMenu['grants'],
    agreements: Number(row.agreements),
    users: Number(row.users),
  };
}

/** True when the stored menu and its grants are exactly MENU's (the usual start): nothing to write. */
function menuUpToDate({ entries, grants }: StoredMenu): boolean {
  const stored = new Map(entries.map((e) => [e.id, e]));
  const sameEntries =
    entries.length === MENU.length &&
    MENU.every((m, sort) => {
      const e = stored.get(m.id);
      return (
        !!e &&
        e.cn === m.cn &&
        e.name === m.name &&
        e.icon === m.icon &&
        e.router === m.router &&
        e.mpid === m.mpid &&
        e.sort === sort
      );
    });
  if (!sameEntries) return false;
  const want = new Set(MENU.flatMap((m) => m.types.map((t) => `${t}:${m.id}`)));
  return grants.length === want.size && grants.every((g) => want.has(`${g.userType}:${g.menuId}`));
}

/** Upserts the menu tree and its grants per user type (idempotent; runs at every start, writes only when changed). */
export async function seedMenu(db: Db, stored?: StoredMenu): Promise<void> {
  if (menuUpToDate(stored ?? (await startState(db)))) return;
  await db.$transaction(async (tx) => {
    for (const [sort, m] of MENU.entries()) {
      const data = { cn: m.cn, name: m.name, icon: m.icon, router: m.router, mpid: m.mpid, sort };
      await tx.menuEntry.upsert({ where: { id: m.id }, create: { id: m.id, ...data }, update: data });
    }
    await tx.menuEntry.deleteMany({ where: { id: { notIn: MENU.map((m) => m.id) } } });
    await tx.menuGrant.deleteMany({});
    await tx.menuGrant.createMany({
      data: MENU.flatMap((m) => m.types.map((userType) => ({ userType, menuId: m.id }))),
    });
  });
}

/**
 * Reference data every installation needs, at every start: the menu, and a first confidentiality
 * agreement when none was published (suppliers cannot open any file without one).
 */
export async function seedReference(db: Db, state?: StartState, sql: StateReader = db): Promise<void> {
  await withAdvisoryLock(db, SEED_LOCK, () => referenceData(db, state, sql));
}

async function referenceData(db: Db, state?: StartState, sql: StateReader = db): Promise<void> {
  const s = state ?? (await startState(sql));
  await seedMenu(db, s);
  if (s.agreements === 0) await seedAgreement(db);
}

/**
 * Seeds the demo suppliers, accounts and archive (with the files' bytes in `storage`) when the
 * database has no users yet.
 */
export async function seedDemo(db: Db, storage: Storage, sql: StateReader = db): Promise<boolean> {
  // the check (no users yet) and the seed under one lock: of several processes starting at once
  // on an empty database, one seeds and the others then find the users (before, one crashed on a
  // duplicate supplier_pkey)
  return withAdvisoryLock(db, SEED_LOCK, () => demoData(db, storage, sql));
}

async function demoData(db: Db, storage: Storage, sql: StateReader): Promise<boolean> {
  // asked first so that the demo password's scrypt (thread pool, ~16 MB, 50–100 ms) runs while
  // the reference data is checked instead of after it
  const state = await startState(sql);
  const hashing = state.users === 0 ? hashPassword(DEMO_PASSWORD) : null;
  hashing?.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
  await referenceData(db, state);
  startPhase('menu / agreement check');
  if (!hashing) return false;
  const passwordHash = await hashing;
  // the seed-only batch insert (demo-batch.ts): no Prisma query compiled for these shapes
  const now = new Date();
  const userIds = await db.$transaction(async (tx) => {
    await insertRows(
      tx,
      'supplier',
      DEMO_SUPPLIERS.map((s) => ({ ...s, createdAt: now })),
    );
    return insertRowsReturningIds(
      tx,
      'app_user',
      DEMO_USERS.map((u) => ({ ...u, passwordHash, enabled: true, createdAt: now, updatedAt: now })),
    );
  });
  startPhase('seed: accounts');
  const uploaders = ['demo3', 'demo8'].map((account) => {
    const i = DEMO_USERS.findIndex((u) => u.account === account);
    return { id: userIds[i]!, name: DEMO_USERS[i]!.name };
  });
  // loaded only when seeding: drawing the demo files needs canvas and pdf-lib, which a server
  // that never seeds should not keep in memory
  const { seedDemoArchives } = await import('../modules/archives/demo.ts');
  startPhase('seed: drawing code loaded');
  await seedDemoArchives(db, storage, uploaders);
  startPhase('seed: archives');
  const { seedDemoEmpower } = await import('../modules/empower/demo.ts');
  await seedDemoEmpower(db);
  startPhase('seed: empower');
  await seedDemoNotices(db);
  startPhase('seed: notices');
  const { seedDemoHistory } = await import('../modules/logs/demo.ts');
  await seedDemoHistory(db);
  startPhase('seed: history');
  const { seedDemoDocumentIssues } = await import('../modules/documentIssues/demo.ts');
  await seedDemoDocumentIssues(db, storage);
  startPhase('seed: document issues');
  const { seedDemoCountersign } = await import('../modules/countersign/demo.ts');
  await seedDemoCountersign(db);
  startPhase('seed: countersign');
  const { seedDemoBom } = await import('../modules/bom/demo.ts');
  await seedDemoBom(db);
  startPhase('seed: bom');
  const { seedDemoPhoneLog } = await import('../modules/phoneLog/demo.ts');
  await seedDemoPhoneLog(db);
  startPhase('seed: phone log');
  const { seedDemoNotifications } = await import('../modules/notifications/demo.ts');
  await seedDemoNotifications(db);
  startPhase('seed: notifications');
  return true;
}
