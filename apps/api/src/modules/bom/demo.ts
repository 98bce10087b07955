/**
 * Demo 2–3 level BOMs: S001 (demo2) has BOMs on three of its seven materials, S002
 * (demo4) on two; the rest show the "not maintained" state. One sub-tier vendor (宁波金田塑胶)
 * supplies both suppliers, so the where-used search finds two first-tier suppliers at once.
 * Dated relative to seeding, imported by the suppliers' colleagues.
 */
import type { Db } from '../../db/database.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { insertRows, insertRowsReturningIds } from '../../db/demo-batch.ts';

const DAY = 86_400_000;

const VENDORS = {
  baosteel: {
    vendorName: '上海宝钢薄板加工有限公司',
    vendorCreditCode: '91310115MA1H7K3X2A',
    vendorRegion: '上海市浦东新区',
    vendorContact: '钱敏',
    vendorMobile: '13916001234',
  },
  jintian: {
    vendorName: '宁波金田塑胶制品有限公司',
    vendorCreditCode: '91330206MA2CJ8L41B',
    vendorRegion: '浙江省宁波市',
    vendorContact: '俞海',
    vendorMobile: '13857402288',
  },
  haisheng: {
    vendorName: '青岛海胜橡塑密封件有限公司',
    vendorCreditCode: '91370214MA3D2N5P7C',
    vendorRegion: '山东省青岛市',
    vendorContact: '孙波',
    vendorMobile: '15063907711',
  },
  cixing: {
    vendorName: '宁波磁星磁业有限公司',
    vendorCreditCode: '91330281MA2H4R6T8D',
    vendorRegion: '浙江省余姚市',
    vendorContact: '毛佳',
    vendorMobile: '13586603355',
  },
  tongda: {
    vendorName: '佛山通达五金制品有限公司',
    vendorCreditCode: '91440606MA4W1K2Y3E',
    vendorRegion: '广东省佛山市',
    vendorContact: '梁宇',
    vendorMobile: '13702916644',
  },
  taigang: {
    vendorName: '山西太钢不锈钢精密带钢有限公司',
    vendorCreditCode: '91140100MA0L5E8Q1F',
    vendorRegion: '山西省太原市',
    vendorContact: '郭峰',
    vendorMobile: '13935107766',
  },
  jinqiao: {
    vendorName: '天津金桥焊材集团股份有限公司',
    vendorCreditCode: '91120110MA05J3A9XG',
    vendorRegion: '天津市东丽区',
    vendorContact: '刘畅',
    vendorMobile: '13820028899',
  },
  shengyi: {
    vendorName: '广东生益科技股份有限公司',
    vendorCreditCode: '91441900MA4UL2C7WH',
    vendorRegion: '广东省东莞市',
    vendorContact: '邓杰',
    vendorMobile: '13826800011',
  },
  zhaoyi: {
    vendorName: '北京兆易创新科技股份有限公司',
    vendorCreditCode: '91110108MA01B6D3RJ',
    vendorRegion: '北京市海淀区',
    vendorContact: '程琳',
    vendorMobile: '13601100022',
  },
  hongfa: {
    vendorName: '厦门宏发电声股份有限公司',
    vendorCreditCode: '91350200MA2Y8F4U6K',
    vendorRegion: '福建省厦门市',
    vendorContact: '林涛',
    vendorMobile: '13906000033',
  },
} as const;
type Vendor = keyof typeof VENDORS;

interface DemoLine {
  code: string;
  name: string;
  spec?: string;
  qty: string;
  unit: string;
  drawing?: boolean;
  vendor: Vendor;
  children?: DemoLine[];
}

const BOMS: { supplierCode: string; materialCode: string; by: string; daysAgo: number; lines: DemoLine[] }[] = [
  {
    supplierCode: 'S001',
    materialCode: '0064000101',
    by: '孙静',
    daysAgo: 12,
    lines: [
      {
        code: 'HD-MK-01',
        name: '门壳',
        spec: 'DC01 t=0.5 预涂',
        qty: '1',
        unit: '件',
        drawing: true,
        vendor: 'baosteel',
        children: [
          { code: 'GB-DC01-05', name: '冷轧钢板', spec: 'DC01 0.5×1250', qty: '2.35', unit: 'kg', vendor: 'baosteel' },
          { code: 'TL-PCM-W', name: '预涂层', spec: 'PCM 白色', qty: '0.12', unit: 'kg', vendor: 'baosteel' },
        ],
      },
      {
        code: 'HD-MC-02',
        name: '门衬',
        spec: 'HIPS 吸塑',
        qty: '1',
        unit: '件',
        drawing: true,
        vendor: 'jintian',
        children: [
          { code: 'SL-HIPS-825', name: 'HIPS 粒子', spec: '825 白', qty: '1.8', unit: 'kg', vendor: 'jintian' },
        ],
      },
      {
        code: 'HD-MF-03',
        name: '门封条',
        spec: 'PVC 磁性',
        qty: '1',
        unit: '条',
        drawing: true,
        vendor: 'haisheng',
        children: [
          { code: 'CT-FE-10', name: '磁条', spec: '铁氧体 10×3', qty: '4.2', unit: 'm', vendor: 'cixing' },
          { code: 'SL-PVC-65', name: '软质 PVC 粒子', spec: '邵氏 65A', qty: '0.45', unit: 'kg', vendor: 'haisheng' },
        ],
      },
      { code: 'HD-BS-04', name: '门把手', spec: 'ABS 电镀', qty: '1', unit: '个', vendor: 'tongda' },
      { code: 'HD-JL-05', name: '门铰链', spec: 'SPCC 镀锌', qty: '2', unit: '个', drawing: true, vendor: 'tongda' },
    ],
  },
  {
    supplierCode: 'S001',
    materialCode: '0064000102',
    by: '周杰',
    daysAgo: 6,
    lines: [
      {
        code: 'ZJ-GB-01',
        name: '支架钢板',
        spec: 'Q235 t=3',
        qty: '1',
        unit: '件',
        drawing: true,
        vendor: 'baosteel',
        children: [
          { code: 'GB-Q235-3', name: '热轧钢板', spec: 'Q235 3×1500', qty: '1.35', unit: 'kg', vendor: 'baosteel' },
        ],
      },
      { code: 'ZJ-LS-02', name: '防松螺栓', spec: 'M8×25 8.8级', qty: '4', unit: '个', vendor: 'tongda' },
    ],
  },
  {
    supplierCode: 'S001',
    materialCode: '0034000201',
    by: '孙静',
    daysAgo: 3,
    lines: [
      {
        code: 'NT-TJ-01',
        name: '内桶筒身',
        spec: 'SUS304 t=0.4',
        qty: '1',
        unit: '件',
        drawing: true,
        vendor: 'taigang',
        children: [
          { code: 'BX-304-04', name: '不锈钢卷', spec: 'SUS304 0.4×1000', qty: '3.1', unit: 'kg', vendor: 'taigang' },
        ],
      },
      { code: 'NT-HS-02', name: '焊丝', spec: 'ER308L φ0.8', qty: '0.05', unit: 'kg', vendor: 'jinqiao' },
    ],
  },
  {
    supplierCode: 'S002',
    materialCode: '0034000204',
    by: '吴芳',
    daysAgo: 9,
    lines: [
      {
        code: 'DF-PCB-01',
        name: 'PCB 光板',
        spec: 'FR-4 1.6mm 双面',
        qty: '1',
        unit: '片',
        drawing: true,
        vendor: 'shengyi',
      },
      {
        code: 'DF-YJ-02',
        name: '元器件套件',
        qty: '1',
        unit: '套',
        vendor: 'zhaoyi',
        children: [
          { code: 'IC-GD32F103', name: '主控芯片', spec: 'GD32F103C8T6', qty: '1', unit: '个', vendor: 'zhaoyi' },
          { code: 'JD-HF32F', name: '继电器', spec: 'HF32F-G 5V', qty: '3', unit: '个', vendor: 'hongfa' },
        ],
      },
      { code: 'DF-KT-03', name: '主板外壳', spec: 'ABS V0', qty: '1', unit: '件', drawing: true, vendor: 'jintian' },
    ],
  },
  {
    supplierCode: 'S002',
    materialCode: '0064000104',
    by: '郑浩',
    daysAgo: 4,
    lines: [
      {
        code: 'MB-ABS-01',
        name: '面板注塑件',
        spec: 'ABS 白色',
        qty: '1',
        unit: '件',
        drawing: true,
        vendor: 'jintian',
        children: [
          { code: 'SL-ABS-757', name: 'ABS 粒子', spec: 'PA-757 白', qty: '0.32', unit: 'kg', vendor: 'jintian' },
        ],
      },
    ],
  },
];

export async function seedDemoBom(db: Db): Promise<void> {
  const now = Date.now();
  // the suppliers' colleagues of the demo history (logs/demo.ts) did the imports
  const users = await db.user.findMany({
    where: { supplierCode: { in: ['S001', 'S002'] } },
    select: { id: true, account: true, name: true, supplierCode: true },
    orderBy: { id: 'asc' },
  });
  const who = (supplierCode: string, name: string) =>
    users.find((u) => u.supplierCode === supplierCode && u.name === name) ??
    users.find((u) => u.supplierCode === supplierCode);
  const line = (l: DemoLine, i: number) => ({
    componentCode: l.code,
    componentName: l.name,
    spec: l.spec ?? null,
    quantity: new Prisma.Decimal(l.qty),
    unit: l.unit,
    hasDrawing: l.drawing ?? false,
    ...VENDORS[l.vendor],
    sortNo: i + 1,
  });
  // One INSERT per level for every BOM at once (demo-batch.ts), whatever the depth: a level's
  // lines need their parents' ids, which the level above returned.
  type Base = { supplierCode: string; materialCode: string; updatedBy: string; createdAt: Date; updatedAt: Date };
  type Pending = { base: Base; l: DemoLine; i: number; parentId: number | null; parentCode: string };
  await db.$transaction(async (tx) => {
    const written = new Map<string, number>();
    let level: Pending[] = BOMS.flatMap((bom) => {
      const at = new Date(now - bom.daysAgo * DAY);
      const base: Base = {
        supplierCode: bom.supplierCode,
        materialCode: bom.materialCode,
        updatedBy: bom.by,
        createdAt: at,
        updatedAt: at,
      };
      return bom.lines.map((l, i): Pending => ({ base, l, i, parentId: null, parentCode: bom.materialCode }));
    });
    for (let depth = 2; level.length; depth++) {
      const ids = await insertRowsReturningIds(
        tx,
        'bom_line',
        level.map((p) => ({
          ...p.base,
          ...line(p.l, p.i),
          level: depth,
          parentId: p.parentId,
          parentCode: p.parentCode,
        })),
      );
      for (const p of level) {
        const key = `${p.base.supplierCode}/${p.base.materialCode}`;
        written.set(key, (written.get(key) ?? 0) + 1);
      }
      level = level.flatMap((p, k) =>
        (p.l.children ?? []).map((c, j) => ({ base: p.base, l: c, i: j, parentId: ids[k]!, parentCode: p.l.code })),
      );
    }
    await insertRows(
      tx,
      'bom_event',
      BOMS.map((bom) => {
        const user = who(bom.supplierCode, bom.by);
        const at = new Date(now - bom.daysAgo * DAY);
        return {
          supplierCode: bom.supplierCode,
          materialCode: bom.materialCode,
          action: 'IMPORT',
          written: written.get(`${bom.supplierCode}/${bom.materialCode}`) ?? 0,
          detail: '导入 二三级BOM.xlsx',
          userId: user?.id ?? 0,
          userAccount: user?.account ?? '',
          userName: bom.by,
          createdAt: at,
        };
      }),
    );
  });
}
