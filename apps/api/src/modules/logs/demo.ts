/**
 * A believable recent history for the demo: colleagues of the demo suppliers and the
 * drawing staff viewed, downloaded, printed and confirmed drawings over the last 30 days, signed
 * the agreement, and were refused now and then (an expired grant) — so every log page of a fresh
 * demo has rows. Dated relative to seeding, deterministic (a seeded generator), written once on
 * an empty database. The demo logins themselves (demo2, demo4 …) keep a clean slate: their first
 * steps (the agreement, the first confirmation) are what a demo shows.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { hashPassword } from '../../lib/password.ts';
import { materialAccess, visibleMaterialCodes } from '../empower/index.ts';
import { startPhase } from '../../lib/start-trace.ts';
import { insertRows } from '../../db/demo-batch.ts';

const DAY = 86_400_000;

/** Colleagues whose history fills the logs (no usable password: they never sign in). */
const COLLEAGUES = [
  { account: 'hd-sunjing', name: '孙静', nick: '海达精密-孙静', type: 2, supplierCode: 'S001' },
  { account: 'hd-zhoujie', name: '周杰', nick: '海达精密-周杰', type: 2, supplierCode: 'S001' },
  { account: 'df-wufang', name: '吴芳', nick: '东方电子-吴芳', type: 4, supplierCode: 'S002' },
  { account: 'df-zhenghao', name: '郑浩', nick: '东方电子-郑浩', type: 4, supplierCode: 'S002' },
];
const SUPPLIER_NAMES: Record<string, string> = { S001: '青岛海达精密机械有限公司', S002: '宁波东方电子科技有限公司' };

/** A small seeded generator (mulberry32): the same demo every time. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function seedDemoHistory(db: Db): Promise<void> {
  const now = Date.now();
  const rnd = random(20261122);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  /** A working-hours moment (08:30–18:00 in UTC+8) `days` ago. */
  const at = (days: number) => {
    const day = Math.floor((now - days * DAY + 8 * 3600_000) / DAY) * DAY - 8 * 3600_000;
    const t = day + (8.5 + rnd() * 9.5) * 3600_000;
    // today's working hours may still be ahead (e.g. seeding at night): then the day before
    return new Date(t < now - 60_000 ? t : t - DAY);
  };

  // the scrypt hash (of a password nobody knows) runs on libuv's thread pool while the reads run;
  // random, not derived from the seed's time: the demo image's manifest publishes that time
  // (db/image.ts). rnd() is still drawn, so the seeded history below is the same as before.
  const hashing = hashPassword(`never-${randomBytes(24).toString('hex')}-${rnd()}`);
  const [agreement, files, ...visibleCodes] = await Promise.all([
    db.keepsecretAgreement.findFirstOrThrow({ orderBy: { version: 'desc' } }),
    db.standardFile.findMany({
      where: { status: { in: ['EFFECTIVE', 'HISTORY'] } },
      include: { material: { select: { name: true } } },
    }),
    ...['S001', 'S002'].map((s) => visibleMaterialCodes(db, s)),
  ]);
  const visible = new Map(['S001', 'S002'].map((s, i) => [s, new Set(visibleCodes[i])]));
  // a supplier now and then tries a drawing its grant no longer covers (S001's expired 0034000202)
  const closed = files.find((f) => f.materialCode === '0034000202');
  const closedVerdict = closed ? await materialAccess(db, 'S001', closed.materialCode) : null;
  startPhase('seed: history reads');
  const passwordHash = await hashing;
  await db.user.createMany({ data: COLLEAGUES.map((u) => ({ ...u, passwordHash })), skipDuplicates: true });
  const users = await db.user.findMany({
    where: { account: { in: [...COLLEAGUES.map((u) => u.account), 'demo3', 'demo8'] } },
  });

  startPhase('seed: history colleagues');
  const rows: Prisma.AccessLogCreateManyInput[] = [];
  const ip = (u: { supplierCode: string | null }) =>
    u.supplierCode === 'S001'
      ? `10.21.3.${20 + Math.floor(rnd() * 40)}`
      : u.supplierCode
        ? `10.58.7.${100 + Math.floor(rnd() * 50)}`
        : `10.1.0.${10 + Math.floor(rnd() * 20)}`;
  const who = (u: (typeof users)[number]) => ({
    userId: u.id,
    userAccount: u.account,
    userName: u.supplierCode ? u.nick : u.name,
    userType: u.type,
    supplierCode: u.supplierCode,
    supplierName: u.supplierCode ? SUPPLIER_NAMES[u.supplierCode]! : null,
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/140.0 Safari/537.36',
  });
  const about = (f: (typeof files)[number]) => ({
    fileId: f.id,
    standardCode: f.standardCode,
    fileName: f.fileName,
    version: f.version,
    materialCode: f.materialCode,
    materialName: f.material.name,
  });

  const acceptances: Prisma.KeepsecretAcceptanceCreateManyInput[] = [];
  for (const u of users) {
    const supplier = u.supplierCode;
    const start = 28 + Math.floor(rnd() * 3);
    if (supplier) {
      const signedAt = at(start);
      acceptances.push({ agreementId: agreement.id, userId: u.id, supplierCode: supplier, acceptedAt: signedAt });
      rows.push({
        ...who(u),
        action: 'KEEPSECRET',
        outcome: 'OK',
        fileName: agreement.title,
        version: `V${agreement.version}`,
        ip: ip(u),
        createdAt: signedAt,
      });
    }
    const mine = files.filter((f) => !supplier || visible.get(supplier)!.has(f.materialCode));
    const confirmed = new Set<number>();
    for (let days = start - 1; days >= 0; days--) {
      if (rnd() < 0.35) continue; // not every day
      for (let n = 1 + Math.floor(rnd() * 3); n > 0; n--) {
        const f = pick(mine);
        const when = at(days);
        rows.push({ ...who(u), ...about(f), action: 'VIEW', outcome: 'OK', ip: ip(u), createdAt: when });
        const follow = new Date(when.getTime() + (2 + rnd() * 20) * 60_000);
        if (follow.getTime() >= now) continue;
        const r = rnd();
        if (r < 0.25)
          rows.push({ ...who(u), ...about(f), action: 'DOWNLOAD', outcome: 'OK', ip: ip(u), createdAt: follow });
        else if (r < 0.4)
          rows.push({ ...who(u), ...about(f), action: 'PRINT', outcome: 'OK', ip: ip(u), createdAt: follow });
        else if (supplier && f.status === 'EFFECTIVE' && !confirmed.has(f.id) && r < 0.75) {
          confirmed.add(f.id);
          rows.push({ ...who(u), ...about(f), action: 'CONFIRM', outcome: 'OK', ip: ip(u), createdAt: follow });
        }
      }
    }
    if (supplier === 'S001' && closed && closedVerdict && !closedVerdict.ok) {
      rows.push({
        ...who(u),
        ...about(closed),
        action: 'VIEW',
        outcome: 'REFUSED',
        reason: closedVerdict.reason,
        ip: ip(u),
        createdAt: at(3 + Math.floor(rnd() * 5)),
      });
    }
  }
  // ids in time order, as the server writes them
  rows.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
  // one transaction: a table at a time (demo-batch.ts); the access log through insertRows, which
  // spares Prisma's per-row cost (~250 ms of a cold start for these 344 rows)
  await db.$transaction(async (tx) => {
    await insertRows(tx, 'keepsecret_acceptance', acceptances);
    await insertRows(tx, 'access_log', rows);
  });
}
