/**
 * Demo change notices, seeded after the demo archive (archives/demo.ts) so every state
 * can be walked: a draft, published notices read, unread, confirmed and overdue, a closed one and a
 * withdrawn one — dated relative to the seed time like the grants, so "overdue" stays overdue and
 * "due in 6 days" stays ahead whenever the demo is started. Each confirmed recipient has the logged
 * view of the new version that a confirmation needs, and its confirmed versions with their sha256.
 *
 *  BG-…-0001 已关闭  Q/HR-XYJ-S020 V1.0→V2.0   S001 已确认 (demo2)
 *  BG-…-0002 已撤回  HR-XYJ-D105 A→B           S002 未读 — withdrawn the next day
 *  BG-…-0003 已发布  HR-XYJ-D105 A→B (again)   S002 已读, 逾期
 *  BG-…-0004 已发布  HR-KT-D202 B→C            S001 未读, 逾期, reminded; S002 已确认 (demo4)
 *  BG-…-0005 已发布  HR-BX-D001 B→C            S001 已读, due in 6 days
 *  BG-…-0006 草稿    HR-BX-D003 A→B
 */
import { cstDay } from '../../lib/dates.ts';
import type { Db } from '../../db/database.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { insertRows, insertRowsReturningIds } from '../../db/demo-batch.ts';
import { RECOUNT_OPEN_RECIPIENTS_SQL } from './query.ts';

const DAY = 86_400_000;

type Who = 'demo2' | 'demo4';
type State =
  | { status: 'UNREAD' }
  | { status: 'READ'; at: number }
  | { status: 'CONFIRMED'; readAt: number; viewedAt: number; at: number };

interface DemoNotice {
  title: string;
  reason: string;
  description?: string;
  productLineCode: string;
  change: { standardCode: string; from: string; to: string };
  /** Days relative to the seed (negative: in the past). */
  created: number;
  published?: number;
  due: number;
  closed?: number;
  withdrawn?: { at: number; reason: string };
  recipients: Partial<Record<'S001' | 'S002', State & { remindedAt?: number }>>;
}

const NOTICES: DemoNotice[] = [
  {
    title: '内桶焊缝检验增加渗透检测',
    reason: '客诉：内桶焊缝渗漏，检验规范增加渗透检测要求',
    productLineCode: 'XYJ',
    change: { standardCode: 'Q/HR-XYJ-S020', from: 'V1.0', to: 'V2.0' },
    created: -82,
    published: -80,
    due: -73,
    closed: -60,
    recipients: { S001: { status: 'CONFIRMED', readAt: -79.9, viewedAt: -79.8, at: -79.5 } },
  },
  {
    title: '控制主板继电器型号更换',
    reason: '原继电器停产，更换为同规格替代型号',
    productLineCode: 'XYJ',
    change: { standardCode: 'HR-XYJ-D105', from: 'A', to: 'B' },
    created: -59,
    published: -58,
    due: -51,
    withdrawn: { at: -57, reason: '替代继电器型号待定，撤回后重新发布' },
    recipients: { S002: { status: 'UNREAD' } },
  },
  {
    title: '控制主板继电器型号更换（重新发布）',
    reason: '原继电器停产，更换为同规格替代型号（型号已确定）',
    description: '请按 B 版图纸更新来料检验标准，并于截止日期前确认。',
    productLineCode: 'XYJ',
    change: { standardCode: 'HR-XYJ-D105', from: 'A', to: 'B' },
    created: -51,
    published: -50,
    due: -43,
    recipients: { S002: { status: 'READ', at: -49 } },
  },
  {
    title: '贯流风叶动平衡等级提高至 G2.5',
    reason: '整机噪音优化，风叶动平衡等级由 G6.3 提高至 G2.5',
    description: '新版图纸自生效日起执行，在制品按旧版图纸完成后切换。',
    productLineCode: 'KT',
    change: { standardCode: 'HR-KT-D202', from: 'B', to: 'C' },
    created: -13,
    published: -12,
    due: -5,
    recipients: {
      S001: { status: 'UNREAD', remindedAt: -2 },
      S002: { status: 'CONFIRMED', readAt: -11.5, viewedAt: -11.4, at: -11 },
    },
  },
  {
    title: '冰箱门体防凝露加热丝走线调整',
    reason: '防凝露加热丝走线避让门封槽',
    productLineCode: 'BX',
    change: { standardCode: 'HR-BX-D001', from: 'B', to: 'C' },
    created: -1.2,
    published: -1,
    due: 6,
    recipients: { S001: { status: 'READ', at: -0.8 } },
  },
  {
    title: '压缩机支架板厚调整',
    reason: '板厚由 2.5mm 改为 3mm，提高支架刚度',
    productLineCode: 'BX',
    change: { standardCode: 'HR-BX-D003', from: 'A', to: 'B' },
    created: -0.5,
    due: 7,
    recipients: {},
  },
];

const IPS: Record<Who, string> = { demo2: '10.1.20.35', demo4: '10.2.8.17' };
const SUPPLIER_USER: Record<'S001' | 'S002', Who> = { S001: 'demo2', S002: 'demo4' };

export async function seedDemoNotices(db: Db): Promise<void> {
  const now = Date.now();
  const at = (days: number) => new Date(now + days * DAY);
  const users = new Map(
    (
      await db.user.findMany({ where: { account: { in: ['demo2', 'demo3', 'demo4'] } }, include: { supplier: true } })
    ).map((u) => [u.account, u]),
  );
  const admin = users.get('demo3')!;
  const year = Number(cstDay(new Date(now)).slice(0, 4));

  const standardCodes = [...new Set(NOTICES.map((n) => n.change.standardCode))];
  const allFiles = await db.standardFile.findMany({
    where: { standardCode: { in: standardCodes } },
    include: { material: true },
  });
  const fileOf = (standardCode: string, version: string) =>
    allFiles.find((f) => f.standardCode === standardCode && f.version === version)!;
  const plans = NOTICES.map((n, i) => ({
    n,
    number: `BG-${year}-${String(i + 1).padStart(4, '0')}`,
    from: fileOf(n.change.standardCode, n.change.from),
    to: fileOf(n.change.standardCode, n.change.to),
    status: n.withdrawn
      ? 'WITHDRAWN'
      : n.closed !== undefined
        ? 'CLOSED'
        : n.published !== undefined
          ? 'PUBLISHED'
          : 'DRAFT',
    recipients: Object.entries(n.recipients) as ['S001' | 'S002', State & { remindedAt?: number }][],
  }));

  // a table at a time (demo-batch.ts); every table's rows in the order the notices are listed,
  // each notice's events in the order they happened, as the notice's moves would have written them
  // through the seed-only batch insert (demo-batch.ts): one statement a table, no Prisma query
  // compiled; a column a row lacks is NULL there, so every row names remind_count (default 0)
  const seeded = new Date(now);
  await db.$transaction(async (tx) => {
    const noticeIds = await insertRowsReturningIds(
      tx,
      'change_notice',
      plans.map(({ n, number, status }) => ({
        number,
        title: n.title,
        reason: n.reason,
        description: n.description ?? null,
        productLineCode: n.productLineCode,
        status,
        dueDate: new Date(`${cstDay(at(n.due))}T00:00:00Z`),
        createdById: admin.id,
        createdByName: admin.name,
        createdAt: at(n.created),
        publishedAt: n.published !== undefined ? at(n.published) : null,
        publishedByName: n.published !== undefined ? admin.name : null,
        closedAt: n.closed !== undefined ? at(n.closed) : null,
        closedByName: n.closed !== undefined ? admin.name : null,
        withdrawnAt: n.withdrawn ? at(n.withdrawn.at) : null,
        withdrawnByName: n.withdrawn ? admin.name : null,
        withdrawReason: n.withdrawn?.reason ?? null,
        updatedAt: seeded,
      })),
    );
    const notices = plans.map(({ number }, i) => ({ id: noticeIds[i]!, number }));
    await insertRows(
      tx,
      'notice_change',
      plans.map(({ from, to }, i) => ({
        noticeId: notices[i]!.id,
        sort: 0,
        standardCode: to.standardCode,
        materialCode: to.materialCode,
        oldFileId: from.id,
        newFileId: to.id,
      })),
    );
    const sent = plans.flatMap((p, i) =>
      p.recipients.map(([supplierCode, state]) => ({
        i,
        supplierCode,
        state,
        user: users.get(SUPPLIER_USER[supplierCode])!,
      })),
    );
    const readAtOf = (state: State) =>
      state.status === 'READ' ? state.at : state.status === 'CONFIRMED' ? state.readAt : undefined;
    const recipientIds = await insertRowsReturningIds(
      tx,
      'notice_recipient',
      sent.map(({ i, supplierCode, state, user }) => {
        const readAt = readAtOf(state);
        const to = plans[i]!.to;
        return {
          noticeId: notices[i]!.id,
          supplierCode,
          supplierName: user.supplier!.name,
          basis: [{ materialCode: to.materialCode, materialName: to.material.name, validUntil: at(275).toISOString() }],
          status: state.status,
          ...(readAt !== undefined
            ? {
                readAt: at(readAt),
                readByAccount: user.account,
                readByName: user.nick,
                readIp: IPS[user.account as Who],
              }
            : {}),
          ...(state.status === 'CONFIRMED'
            ? {
                confirmedAt: at(state.at),
                confirmedByAccount: user.account,
                confirmedByName: user.nick,
                confirmedIp: IPS[user.account as Who],
              }
            : {}),
          ...(state.remindedAt !== undefined
            ? { remindCount: 1, lastRemindedAt: at(state.remindedAt) }
            : { remindCount: 0 }),
        };
      }),
    );
    // the proof a confirmation rests on: the supplier's logged view of the new version
    const confirmed = sent.flatMap((r, k) =>
      r.state.status === 'CONFIRMED'
        ? [{ ...r, state: r.state, recipientId: recipientIds[k]!, to: plans[r.i]!.to }]
        : [],
    );
    const viewRows = confirmed.map(({ user, supplierCode, state, to }) => ({
      action: 'VIEW',
      outcome: 'OK',
      userId: user.id,
      userAccount: user.account,
      userName: user.nick,
      userType: user.type,
      supplierCode,
      supplierName: user.supplier!.name,
      fileId: to.id,
      standardCode: to.standardCode,
      fileName: to.fileName,
      version: to.version,
      materialCode: to.materialCode,
      materialName: to.material.name,
      ip: IPS[user.account as Who],
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0',
      createdAt: at(state.viewedAt),
    }));
    const viewIds = await insertRowsReturningIds(tx, 'access_log', viewRows);
    await insertRows(
      tx,
      'notice_confirmed_file',
      confirmed.map(({ recipientId, to }, k) => ({
        recipientId,
        fileId: to.id,
        standardCode: to.standardCode,
        version: to.version,
        sha256: to.sha256,
        viewLogId: viewIds[k]!,
        viewedAt: viewRows[k]!.createdAt,
      })),
    );

    const events: Prisma.NoticeEventCreateManyInput[] = [];
    for (const [i, { n, to, recipients: sentTo }] of plans.entries()) {
      const notice = notices[i]!;
      const event = (action: string, days: number, who = admin, detail?: string | null, supplierCode?: string) =>
        events.push({
          noticeId: notice.id,
          action,
          supplierCode: supplierCode ?? null,
          userId: who.id,
          userAccount: who.account,
          userName: who.supplierCode ? who.nick : who.name,
          ip: who.supplierCode ? IPS[who.account as Who] : '10.0.0.8',
          detail: detail ?? null,
          createdAt: at(days),
        });
      event('CREATE', n.created, admin, `${notice.number}，1 项变更`);
      if (n.published === undefined) continue;
      const codes = sentTo.map(([code]) => code);
      event('PUBLISH', n.published, admin, `通知 ${codes.length} 家供应商：${codes.join('、')}`);
      for (const [supplierCode, state] of sentTo) {
        const user = users.get(SUPPLIER_USER[supplierCode])!;
        const readAt = readAtOf(state);
        if (readAt !== undefined) event('READ', readAt, user, null, supplierCode);
        if (state.remindedAt !== undefined) event('REMIND', state.remindedAt, admin, `催办 1 家：${supplierCode}`);
        if (state.status === 'CONFIRMED')
          event(
            'CONFIRM',
            state.at,
            user,
            `${to.standardCode} ${to.version}（sha256 ${to.sha256.slice(0, 12)}…）`,
            supplierCode,
          );
      }
      if (n.withdrawn) event('WITHDRAW', n.withdrawn.at, admin, n.withdrawn.reason);
      if (n.closed !== undefined) event('CLOSE', n.closed, admin, '全部供应商已确认');
    }
    await insertRows(tx, 'notice_event', events);
    // the year's counter as the upsert of a publication moves it
    await tx.$executeRawUnsafe(
      'INSERT INTO "notice_number" ("year", "last") VALUES ($1, $2) ON CONFLICT ("year") DO UPDATE SET "last" = "notice_number"."last" + EXCLUDED."last"',
      year,
      NOTICES.length,
    );
    // written directly rather than through the moves: their open-recipient counters from the rows
    await tx.$executeRawUnsafe(RECOUNT_OPEN_RECIPIENTS_SQL);
  });
}
