/**
 * Demo countersign lists (issue 12), seeded after the archive and the notices, through the module's
 * own rules (modules/countersign/service.ts with a `now` in the past), so every state can be walked
 * and every signature carries its round's content sha256 — dated relative to the seed time, so
 * "overdue" stays overdue whenever the demo is started. demo3 issues them all.
 *
 *  已完成        S001  round 1 returned by demo8, round 2 signed by demo2, demo8, demo9
 *  待我方会签    S001  demo2 agreed with a condition, demo8 agreed, waiting for demo9 — overdue
 *  待供应商会签  S002  due in 4 days
 *  已退回        S002  returned by demo4, waiting for demo3 to reissue
 *  已取消        S002  cancelled after a return
 *  草稿          S001  not issued yet (demo2 does not see it)
 */
import type { SessionUser } from '../plugins/auth.ts';
import type { UserType } from '@esm/contracts';
import { cancelCountersign, createDraft, issueCountersign, submitSignature, updateDraft } from '../modules/countersign/service.ts';
import { ALL_BUTTONS } from '../modules/permissions/apply.ts';
import { cstDay } from '../lib/dates.ts';
import type { Db } from './database.ts';

const DAY = 86_400_000;
const CLIENT = { ip: '10.0.8.21', userAgent: 'seed' };
const SUPPLIER_CLIENT = { ip: '192.168.31.7', userAgent: 'seed' };

type Step = { by: 'demo2' | 'demo4' | 'demo8' | 'demo9'; at: number; decision?: 'AGREE' | 'CONDITIONAL' | 'RETURN'; comment?: string };

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
      { issued: -29, steps: [{ by: 'demo2', at: -28 }, { by: 'demo8', at: -27, decision: 'RETURN', comment: '第 2 项需写明检测频次' }] },
      {
        issued: -25,
        editedBefore: { at: -26, items: '1. 门体钣金件按 C 版图纸执行，公差等级 IT9\n2. 首批 50 件送检，附三坐标检测报告；量产后每批抽检 5 件\n3. 旧版在制品可用完为止' },
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
  { title: '空调贯流风叶新图纸会签', supplier: 'S002', items: '1. 动平衡等级 G2.5\n2. 每批提供动平衡检测记录', created: -3, due: 4, rounds: [{ issued: -2, steps: [] }] },
  {
    title: '控制主板继电器替代料会签',
    supplier: 'S002',
    items: '1. 继电器替代型号按 B 版图纸\n2. 提供替代料可靠性试验报告',
    created: -12,
    due: 8,
    rounds: [{ issued: -11, steps: [{ by: 'demo4', at: -10, decision: 'RETURN', comment: '替代型号的可靠性试验需 30 天，截止日期请延后' }] }],
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
  { title: '冰箱抽屉导轨新图纸会签', supplier: 'S001', items: '1. 导轨材料改为 SPCC\n2. 表面处理按新规范', created: -1, due: 9, rounds: [] },
];

async function sessionUser(db: Db, account: string): Promise<SessionUser> {
  const u = await db.user.findUniqueOrThrow({ where: { account }, include: { supplier: { select: { name: true } } } });
  const isSupplier = u.type === 2 || u.type === 4;
  return { id: u.id, account: u.account, name: u.name, nick: u.nick, type: u.type as UserType, supplierCode: u.supplierCode, supplierName: u.supplier?.name ?? null, isSupplier };
}

/** Two effective PDFs the supplier may open now (supplies the material, valid grant). */
async function filesFor(db: Db, supplierCode: string, skip: number): Promise<number[]> {
  const rows = await db.$queryRaw<{ id: number }[]>`SELECT f.id FROM standard_file f
    JOIN supplier_material sm ON sm.material_code = f.material_code AND sm.supplier_code = ${supplierCode}
    WHERE f.status = 'EFFECTIVE' AND f.file_type = 'pdf'
      AND EXISTS (SELECT 1 FROM empower_grant g WHERE g.supplier_code = sm.supplier_code AND g.material_code = f.material_code AND g.revoked_at IS NULL AND g.valid_from <= now() AND g.valid_until > now())
    ORDER BY f.standard_code LIMIT 2 OFFSET ${skip}`;
  return rows.map((r) => r.id);
}

export async function seedDemoCountersign(db: Db, seededAt = new Date()): Promise<void> {
  const now = seededAt.getTime();
  const at = (days: number) => new Date(now + days * DAY);
  const users = Object.fromEntries(await Promise.all(['demo2', 'demo3', 'demo4', 'demo8', 'demo9'].map(async (a) => [a, await sessionUser(db, a)] as const)));
  const issuer = users.demo3!;
  const notice = await db.changeNotice.findFirst({ where: { status: 'PUBLISHED' }, orderBy: { id: 'asc' }, select: { id: true } });
  for (const [i, l] of LISTS.entries()) {
    const fileIds = await filesFor(db, l.supplier, i % 3);
    if (fileIds.length === 0) continue; // an archive without such files: nothing to sign
    const draft = {
      title: l.title,
      supplierCode: l.supplier,
      noticeId: l.linkNotice ? notice?.id : undefined,
      items: l.items,
      dueDate: cstDay(at(l.due)),
      fileIds,
      signerIds: [users.demo8!.id, users.demo9!.id],
    };
    // created "then": the due day is checked against that day
    const id = await createDraft(db, issuer, draft, CLIENT, at(Math.min(l.created, l.due)));
    for (const [r, round] of l.rounds.entries()) {
      if (round.editedBefore) await updateDraft(db, issuer, id, { ...draft, items: round.editedBefore.items }, CLIENT, at(Math.min(round.editedBefore.at, l.due)));
      await issueCountersign(db, issuer, id, CLIENT, at(Math.min(round.issued, l.due)));
      for (const [step, s] of round.steps.entries()) {
        const u = users[s.by]!;
        const side = u.isSupplier ? ({ kind: 'supplier', supplierCode: u.supplierCode! } as const) : ({ kind: 'internal', buttons: ALL_BUTTONS } as const);
        await submitSignature(db, u, { id, round: r + 1, step, decision: s.decision ?? 'AGREE', comment: s.comment }, side, u.isSupplier ? SUPPLIER_CLIENT : CLIENT, at(s.at));
      }
    }
    if (l.cancelled) await cancelCountersign(db, issuer, id, l.cancelled.reason, CLIENT, at(l.cancelled.at));
  }
}
