/**
 * Demo countersign lists, seeded after the archive and the notices, through the module's own
 * rules (rules.ts: each list's history — create, edit, issue, sign, cancel, with a `now` in the
 * past — written by writeCountersignHistories, which applies the calls' rules in memory and writes
 * the rows in one transaction of a few statements), so every state can be walked and every
 * signature carries its round's content sha256 — dated relative to the seed time, so "overdue"
 * stays overdue whenever the demo is started. demo3 issues them all.
 *
 *  已完成        S001  round 1 returned by demo8, round 2 signed by demo2, demo8, demo9
 *  待我方会签    S001  demo2 agreed with a condition, demo8 agreed, waiting for demo9 — overdue
 *  待供应商会签  S002  due in 4 days
 *  已退回        S002  returned by demo4, waiting for demo3 to reissue
 *  已取消        S002  cancelled after a return
 *  草稿          S001  not issued yet (demo2 does not see it)
 */
import type { CountersignMove, CountersignStatus, UserType } from '@esm/contracts';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { conflict, notFound } from '../../plugins/errors.ts';
import type { ClientInfo } from '../../lib/access-log.ts';
import { ALL_BUTTONS } from '../../lib/permission-rules.ts';
import { cstDay } from '../../lib/dates.ts';
import {
  COUNTERSIGN_NOT_FOUND,
  cancelColumns,
  checkEditable,
  countersignNumber,
  createDetail,
  displayName,
  draftData,
  draftErrors,
  draftFacts,
  eventData,
  issueColumns,
  issueDetail,
  moveTo,
  refusalOf,
  roundOf,
  roundOutcome,
  signatureData,
  signColumns,
  signEvents,
  signMove,
  throwDraftErrors,
  throwNotIssuable,
  updateDetail,
  type Draft,
  type MoveColumns,
  type Side,
  type Submit,
} from './rules.ts';

/** One step of a list's history after its creation; all but a signature are the issuer's. */
export type CountersignStep =
  | { kind: 'edit'; draft: Draft; at: Date }
  | { kind: 'issue'; at: Date }
  | { kind: 'sign'; user: SessionUser; side: Side; client: ClientInfo; submit: Omit<Submit, 'id'>; at: Date }
  | { kind: 'cancel'; reason: string; at: Date };

export interface CountersignHistory {
  issuer: SessionUser;
  client: ClientInfo;
  draft: Draft;
  createdAt: Date;
  steps: CountersignStep[];
}

/**
 * Writes lists with their whole history — creation, edits, issues, signatures, returns, cancels —
 * as the calls (transitions.ts), one after another, would have left them, in one transaction of ~10
 * statements instead of ~200 in ~25 transactions (~1 s of a cold embedded start). Each
 * step goes through the calls' own rules, applied to the list in memory: the draft checks, the
 * transition table, the signing order and its refusals, what each move writes, the round's
 * content and its sha256, the signature and event rows. The facts the drafts name (suppliers,
 * notices, file versions, users) are read once at the start: for the demo seed, on a database no
 * one else is using yet. Ids follow the order of the histories and their steps, as the calls would
 * have given them. Returns the lists' ids.
 */
export async function writeCountersignHistories(db: Db, histories: CountersignHistory[]): Promise<number[]> {
  if (histories.length === 0) return [];
  return db.$transaction(async (tx) => {
    const facts = await draftFacts(
      tx,
      histories.flatMap((h) => [h.draft, ...h.steps.flatMap((s) => (s.kind === 'edit' ? [s.draft] : []))]),
    );
    // the ids the creations would have taken, in order: each list's number follows its id
    const reserved = await tx.$queryRaw<
      { id: number }[]
    >`SELECT nextval(pg_get_serial_sequence('countersign', 'id'))::int AS id FROM generate_series(1, ${histories.length}::int)`;
    const ids = reserved.map((r) => r.id).sort((a, b) => a - b);
    const lists: Prisma.CountersignCreateManyInput[] = [];
    const rounds: Prisma.CountersignRoundCreateManyInput[] = [];
    const signatures: Prisma.CountersignSignatureCreateManyInput[] = [];
    const events: Prisma.CountersignEventCreateManyInput[] = [];
    histories.forEach((h, i) => {
      const id = ids[i]!;
      let d = h.draft;
      throwDraftErrors(draftErrors(d, h.createdAt, facts));
      const number = countersignNumber(id, h.createdAt);
      const c = {
        id,
        status: 'DRAFT' as CountersignStatus,
        round: 0,
        step: 0,
        issuedAt: null as Date | null,
        completedAt: null as Date | null,
        cancelledAt: null as Date | null,
        cancelReason: null as string | null,
        updatedAt: h.createdAt,
      };
      const apply = (m: CountersignMove, set: MoveColumns) => Object.assign(c, { status: moveTo(m, c.status) }, set);
      const roundsOfList = new Map<number, (typeof rounds)[number]>();
      const signedBy = new Map<string, string>(); // "round/step" → who signed it
      events.push(
        eventData({
          id,
          round: 0,
          action: 'CREATE',
          user: h.issuer,
          client: h.client,
          at: h.createdAt,
          detail: createDetail(number, d),
        }),
      );
      for (const s of h.steps) {
        if (s.kind === 'edit') {
          checkEditable(c.status);
          throwDraftErrors(draftErrors(s.draft, s.at, facts));
          events.push(
            eventData({
              id,
              round: c.round,
              action: 'UPDATE',
              user: h.issuer,
              client: h.client,
              at: s.at,
              detail: updateDetail(c.status, c.round),
            }),
          );
          d = s.draft;
          c.updatedAt = s.at;
        } else if (s.kind === 'issue') {
          moveTo('issue', c.status);
          throwNotIssuable(draftErrors(d, s.at, facts));
          apply('issue', issueColumns(c, s.at));
          const { content, contentSha256 } = roundOf({ number, ...draftData(d) }, d.dueDate, c.round, facts);
          const round = {
            countersignId: id,
            round: c.round,
            content: content as unknown as Prisma.InputJsonValue,
            contentSha256,
            issuedAt: s.at,
            issuedByName: h.issuer.name,
          };
          roundsOfList.set(c.round, round);
          rounds.push(round);
          events.push(
            eventData({
              id,
              round: c.round,
              action: 'ISSUE',
              user: h.issuer,
              client: h.client,
              at: s.at,
              detail: issueDetail(c.round, d.supplierCode, content.supplierName),
            }),
          );
        } else if (s.kind === 'sign') {
          const b: Submit = { id, ...s.submit };
          // what submitSignature's read finds for a supplier: its own lists, once issued
          if (s.side.kind === 'supplier' && (s.side.supplierCode !== d.supplierCode || c.round === 0))
            throw notFound(COUNTERSIGN_NOT_FOUND);
          const seen = { id, status: c.status, round: c.round, step: c.step, signerIds: d.signerIds };
          const why = refusalOf(s.user, seen, b, s.side, signedBy.get(`${b.round}/${b.step}`) ?? null);
          if (why) throw conflict(why);
          const { m, nextStep } = signMove(seen, b.decision);
          apply(m, signColumns(m, nextStep, s.at));
          const round = roundsOfList.get(seen.round)!;
          signatures.push(signatureData(seen, s.user, b, round.contentSha256, s.client, s.at));
          signedBy.set(`${seen.round}/${seen.step}`, displayName(s.user));
          const outcome = roundOutcome(m);
          if (outcome) Object.assign(round, { outcome, endedAt: s.at });
          events.push(...signEvents(seen, m, s.user, b, s.client, s.at).map(eventData));
        } else {
          const round = c.round;
          apply('cancel', cancelColumns(s.reason, s.at));
          events.push(
            eventData({ id, round, action: 'CANCEL', user: h.issuer, client: h.client, at: s.at, detail: s.reason }),
          );
        }
      }
      lists.push({
        number,
        ...draftData(d),
        ...c,
        createdById: h.issuer.id,
        createdByName: h.issuer.name,
        createdAt: h.createdAt,
      });
    });
    await tx.countersign.createMany({ data: lists });
    if (rounds.length) await tx.countersignRound.createMany({ data: rounds });
    if (signatures.length) await tx.countersignSignature.createMany({ data: signatures });
    await tx.countersignEvent.createMany({ data: events });
    return ids;
  });
}

const DAY = 86_400_000;
const CLIENT = { ip: '10.0.8.21', userAgent: 'seed' };
const SUPPLIER_CLIENT = { ip: '192.168.31.7', userAgent: 'seed' };

type Step = {
  by: 'demo2' | 'demo4' | 'demo8' | 'demo9';
  at: number;
  decision?: 'AGREE' | 'CONDITIONAL' | 'RETURN';
  comment?: string;
};

interface DemoList {
  title: string;
  supplier: 'S001' | 'S002';
  items: string;
  linkNotice?: boolean;
  created: number;
  due: number;
  /** Each round: issued at, then its signatures in order. */
  rounds: { issued: number; steps: Step[]; editedBefore?: { at: number; items: string } }[];
  cancelled?: { at: number; reason: string };
}

const LISTS: DemoList[] = [
  {
    title: '冰箱门体钣金件图纸升版会签',
    supplier: 'S001',
    items: '1. 门体钣金件按 C 版图纸执行，公差等级 IT9\n2. 首批 50 件送检，附三坐标检测报告\n3. 旧版在制品可用完为止',
    linkNotice: true,
    created: -30,
    due: -16,
    rounds: [
      {
        issued: -29,
        steps: [
          { by: 'demo2', at: -28 },
          { by: 'demo8', at: -27, decision: 'RETURN', comment: '第 2 项需写明检测频次' },
        ],
      },
      {
        issued: -25,
        editedBefore: {
          at: -26,
          items:
            '1. 门体钣金件按 C 版图纸执行，公差等级 IT9\n2. 首批 50 件送检，附三坐标检测报告；量产后每批抽检 5 件\n3. 旧版在制品可用完为止',
        },
        steps: [
          { by: 'demo2', at: -24 },
          { by: 'demo8', at: -23 },
          { by: 'demo9', at: -22 },
        ],
      },
    ],
  },
  {
    title: '洗衣机内桶焊接工艺变更会签',
    supplier: 'S001',
    items: '1. 内桶焊缝增加渗透检测\n2. 检测记录随货提供',
    created: -10,
    due: -2,
    rounds: [
      {
        issued: -9,
        steps: [
          { by: 'demo2', at: -8, decision: 'CONDITIONAL', comment: '渗透检测设备到位前（约两周）按抽检 20% 执行' },
          { by: 'demo8', at: -6 },
        ],
      },
    ],
  },
  {
    title: '空调贯流风叶新图纸会签',
    supplier: 'S002',
    items: '1. 动平衡等级 G2.5\n2. 每批提供动平衡检测记录',
    created: -3,
    due: 4,
    rounds: [{ issued: -2, steps: [] }],
  },
  {
    title: '控制主板继电器替代料会签',
    supplier: 'S002',
    items: '1. 继电器替代型号按 B 版图纸\n2. 提供替代料可靠性试验报告',
    created: -12,
    due: 8,
    rounds: [
      {
        issued: -11,
        steps: [{ by: 'demo4', at: -10, decision: 'RETURN', comment: '替代型号的可靠性试验需 30 天，截止日期请延后' }],
      },
    ],
  },
  {
    title: '压缩机支架图纸会签（作废）',
    supplier: 'S002',
    items: '压缩机支架按新图纸执行',
    created: -40,
    due: -30,
    rounds: [{ issued: -39, steps: [{ by: 'demo4', at: -38, decision: 'RETURN', comment: '该支架已停产，无需会签' }] }],
    cancelled: { at: -37, reason: '支架已停产，会签取消' },
  },
  {
    title: '冰箱抽屉导轨新图纸会签',
    supplier: 'S001',
    items: '1. 导轨材料改为 SPCC\n2. 表面处理按新规范',
    created: -1,
    due: 9,
    rounds: [],
  },
];

/** The session users of the demo accounts, as the routes would see them signed in (one query). */
export async function sessionUsers<A extends string>(db: Db, accounts: readonly A[]): Promise<Record<A, SessionUser>> {
  const rows = await db.user.findMany({
    where: { account: { in: [...accounts] } },
    include: { supplier: { select: { name: true } } },
  });
  const byAccount = new Map(rows.map((u) => [u.account, u]));
  return Object.fromEntries(
    accounts.map((account) => {
      const u = byAccount.get(account);
      if (!u) throw new Error(`demo countersign: no user ${account}`);
      const isSupplier = u.type === 2 || u.type === 4;
      return [
        account,
        {
          id: u.id,
          account: u.account,
          name: u.name,
          nick: u.nick,
          type: u.type as UserType,
          supplierCode: u.supplierCode,
          supplierName: u.supplier?.name ?? null,
          isSupplier,
        } satisfies SessionUser,
      ];
    }),
  ) as Record<A, SessionUser>;
}

/**
 * The effective PDFs each supplier may open now (supplies the material, valid grant), by
 * standard code: list i takes two of them from the (i % 3)-th on. One query for both suppliers.
 */
async function filesFor(db: Db, supplierCodes: string[]): Promise<Map<string, number[]>> {
  const rows = await db.$queryRaw<
    { id: number; supplier: string }[]
  >`SELECT f.id, sm.supplier_code AS supplier FROM standard_file f
    JOIN supplier_material sm ON sm.material_code = f.material_code AND sm.supplier_code = ANY(${supplierCodes}::text[])
    WHERE f.status = 'EFFECTIVE' AND f.file_type = 'pdf'
      AND EXISTS (SELECT 1 FROM empower_grant g WHERE g.supplier_code = sm.supplier_code AND g.material_code = f.material_code AND g.revoked_at IS NULL AND g.valid_from <= now() AND g.valid_until > now())
    ORDER BY f.standard_code`;
  const out = new Map<string, number[]>();
  for (const r of rows) out.set(r.supplier, [...(out.get(r.supplier) ?? []), r.id]);
  return out;
}

export async function seedDemoCountersign(db: Db, seededAt = new Date()): Promise<void> {
  const now = seededAt.getTime();
  const at = (days: number) => new Date(now + days * DAY);
  const users = await sessionUsers(db, ['demo2', 'demo3', 'demo4', 'demo8', 'demo9'] as const);
  const issuer = users.demo3;
  const suppliers = [...new Set(LISTS.map((l) => l.supplier))];
  // a list links a published notice that went to its own supplier (the first one)
  const sent = await db.noticeRecipient.findMany({
    where: { supplierCode: { in: suppliers }, notice: { status: 'PUBLISHED' } },
    orderBy: { noticeId: 'asc' },
    select: { noticeId: true, supplierCode: true },
  });
  const noticeOf = new Map<string, number>();
  for (const r of sent) if (!noticeOf.has(r.supplierCode)) noticeOf.set(r.supplierCode, r.noticeId);
  const files = await filesFor(db, suppliers);
  const histories: CountersignHistory[] = [];
  for (const [i, l] of LISTS.entries()) {
    const fileIds = (files.get(l.supplier) ?? []).slice(i % 3, (i % 3) + 2);
    if (fileIds.length === 0) continue; // an archive without such files: nothing to sign
    const draft = {
      title: l.title,
      supplierCode: l.supplier,
      noticeId: l.linkNotice ? noticeOf.get(l.supplier) : undefined,
      items: l.items,
      dueDate: cstDay(at(l.due)),
      fileIds,
      signerIds: [users.demo8.id, users.demo9.id],
    };
    const steps: CountersignStep[] = [];
    for (const [r, round] of l.rounds.entries()) {
      if (round.editedBefore)
        steps.push({
          kind: 'edit',
          draft: { ...draft, items: round.editedBefore.items },
          at: at(Math.min(round.editedBefore.at, l.due)),
        });
      steps.push({ kind: 'issue', at: at(Math.min(round.issued, l.due)) });
      for (const [step, s] of round.steps.entries()) {
        const u = users[s.by];
        const side = u.isSupplier
          ? ({ kind: 'supplier', supplierCode: u.supplierCode! } as const)
          : ({ kind: 'internal', buttons: ALL_BUTTONS } as const);
        steps.push({
          kind: 'sign',
          user: u,
          side,
          client: u.isSupplier ? SUPPLIER_CLIENT : CLIENT,
          submit: { round: r + 1, step, decision: s.decision ?? 'AGREE', comment: s.comment },
          at: at(s.at),
        });
      }
    }
    if (l.cancelled) steps.push({ kind: 'cancel', reason: l.cancelled.reason, at: at(l.cancelled.at) });
    // created "then": the due day is checked against that day
    histories.push({ issuer, client: CLIENT, draft, createdAt: at(Math.min(l.created, l.due)), steps });
  }
  await writeCountersignHistories(db, histories);
}
