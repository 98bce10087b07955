/**
 * Demo mobile numbers: each supplier's contacts and the purchasers (采购员) named on
 * the demo materials, and a few reveals by colleagues in the last days, so the 手机号查看日志
 * page is alive from the first start. The numbers are fictitious; tests search every response
 * for them (none may carry one unmasked).
 */
import { PAGES, maskMobile } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { insertRows, insertRowsReturningIds } from '../../db/demo-batch.ts';

export const DEMO_CONTACTS = [
  {
    kind: 'SUPPLIER',
    supplierCode: 'S001',
    name: '刘海涛',
    title: '销售经理',
    mobile: '13912345601',
    email: 'liuht@haida.example',
  },
  { kind: 'SUPPLIER', supplierCode: 'S001', name: '陈晓燕', title: '质量工程师', mobile: '13912345602', email: null },
  {
    kind: 'SUPPLIER',
    supplierCode: 'S001',
    name: '王建国',
    title: '技术负责人',
    mobile: '13912345603',
    email: 'wangjg@haida.example',
  },
  {
    kind: 'SUPPLIER',
    supplierCode: 'S002',
    name: '李明',
    title: '销售经理',
    mobile: '13712345611',
    email: 'liming@dfdz.example',
  },
  { kind: 'SUPPLIER', supplierCode: 'S002', name: '周婷', title: '质量主管', mobile: '13712345612', email: null },
  { kind: 'PURCHASER', supplierCode: null, name: '周俊', title: '冰箱采购', mobile: '13612345621', email: null },
  { kind: 'PURCHASER', supplierCode: null, name: '孙丽', title: '冰箱采购', mobile: '13612345622', email: null },
  { kind: 'PURCHASER', supplierCode: null, name: '吴刚', title: '洗衣机采购', mobile: '13612345623', email: null },
  { kind: 'PURCHASER', supplierCode: null, name: '郑雪', title: '洗衣机采购', mobile: '13612345624', email: null },
  { kind: 'PURCHASER', supplierCode: null, name: '马超', title: '空调采购', mobile: '13612345625', email: null },
  { kind: 'PURCHASER', supplierCode: null, name: '何芳', title: '空调采购', mobile: '13612345626', email: null },
] as const;

const DAY = 86_400_000;

export async function seedDemoPhoneLog(db: Db): Promise<void> {
  // through the seed-only batch insert (demo-batch.ts): no Prisma query compiled for these shapes
  const now = Date.now();
  const seeded = new Date(now);
  const contactIds = await insertRowsReturningIds(
    db,
    'phone_contact',
    DEMO_CONTACTS.map((c) => ({ ...c, createdAt: seeded })),
  );
  const contacts = DEMO_CONTACTS.map((c, i) => ({ ...c, id: contactIds[i]! }));
  const suppliers = new Map((await db.supplier.findMany()).map((s) => [s.code, s.name]));
  const viewers = await db.user.findMany({ where: { account: { in: ['demo8', 'demo9', 'hd-sunjing'] } } });
  // [viewer, contact name, days ago]
  const reveals: [string, string, number][] = [
    ['demo8', '刘海涛', 6],
    ['demo9', '李明', 4],
    ['hd-sunjing', '周俊', 3],
    ['demo8', '周婷', 1],
  ];
  const rows = reveals.flatMap(([account, name, days], i) => {
    const v = viewers.find((u) => u.account === account);
    const c = contacts.find((x) => x.name === name);
    if (!v || !c) return [];
    const supplier = v.supplierCode !== null;
    return [
      {
        viewerId: v.id,
        viewerAccount: v.account,
        viewerName: supplier ? v.nick : v.name,
        viewerType: v.type,
        viewerSupplierCode: v.supplierCode,
        viewerSupplierName: v.supplierCode ? (suppliers.get(v.supplierCode) ?? null) : null,
        contactId: c.id,
        contactKind: c.kind,
        contactName: c.name,
        contactSupplierCode: c.supplierCode,
        contactSupplierName: c.supplierCode ? (suppliers.get(c.supplierCode) ?? null) : null,
        maskedMobile: maskMobile(c.mobile),
        page: supplier ? PAGES.dashboardS.path : PAGES.dashboard.path,
        ip: `10.20.1.${31 + i}`,
        createdAt: new Date(now - days * DAY - (i + 2) * 3600_000),
      },
    ];
  });
  await insertRows(db, 'phone_view_log', rows);
}
