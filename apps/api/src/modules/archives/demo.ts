/**
 * Demo archive data: three product lines, twelve materials, who supplies what, grants
 * in every state and ~20 standard files with versions — enough to walk every archive page as
 * each demo account. Dates are relative to the seed time so grants are valid (or expired, or
 * not yet valid) whenever the demo is started.
 *
 *  S001 青岛海达精密机械 supplies 0064000101-103, 0034000201-202, 0011000301-302: valid grants on
 *    most (0064000103's ends in 20 days); 0034000202's grant expired last month, 0011000301's
 *    starts in two weeks; it also holds a grant on 0011000303, which it does not supply (so it
 *    still cannot see it).
 *  S002 宁波东方电子 supplies 0064000103-104, 0034000203-204, 0011000302-304: valid grants on all
 *    (0034000204's ends in 20 days; 0034000203's comes from an approved application, seeded with
 *    the other demo applications by empower/demo.ts). The grants here are marked imported.
 */
import { cstDateValue } from '../../lib/dates.ts';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { UPLOAD_MAX_BYTES, type FileCategory, type FileStatus, type FileType, type SecretLevel } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { Storage } from '../../lib/storage.ts';
import { drawDemoFile, preparedDemoFiles, type DemoDrawingSpec } from '../../db/demo-files.ts';
import { startPhase } from '../../lib/start-trace.ts';
import { insertRows } from '../../db/demo-batch.ts';

const DAY = 86_400_000;

const PRODUCT_LINES = [
  { code: 'BX', name: '冰箱', sort: 1 },
  { code: 'XYJ', name: '洗衣机', sort: 2 },
  { code: 'KT', name: '空调', sort: 3 },
];

const MATERIALS = [
  { code: '0064000101', name: '冰箱门体组件', spec: 'BCD-470WDPG 右开门', productLineCode: 'BX', purchaser: '周俊' },
  { code: '0064000102', name: '压缩机支架', spec: 'Q235 t=3mm 镀锌', productLineCode: 'BX', purchaser: '周俊' },
  { code: '0064000103', name: '蒸发器', spec: '铝管 φ8 翅片式', productLineCode: 'BX', purchaser: '孙丽' },
  { code: '0064000104', name: '温控器面板', spec: 'ABS 白色 丝印', productLineCode: 'BX', purchaser: '孙丽' },
  { code: '0034000201', name: '滚筒内桶', spec: 'SUS304 φ520×310', productLineCode: 'XYJ', purchaser: '吴刚' },
  { code: '0034000202', name: '电机安装座', spec: 'ADC12 压铸', productLineCode: 'XYJ', purchaser: '吴刚' },
  { code: '0034000203', name: '门封圈', spec: 'EPDM 邵氏 60A', productLineCode: 'XYJ', purchaser: '郑雪' },
  { code: '0034000204', name: '控制主板', spec: '220V/50Hz FR-4 双面板', productLineCode: 'XYJ', purchaser: '郑雪' },
  { code: '0011000301', name: '室外机底盘', spec: 'SGCC t=1.2mm', productLineCode: 'KT', purchaser: '马超' },
  { code: '0011000302', name: '贯流风叶', spec: 'ABS+GF φ98×600', productLineCode: 'KT', purchaser: '马超' },
  { code: '0011000303', name: '冷凝器', spec: '铜管 φ7 双排', productLineCode: 'KT', purchaser: '何芳' },
  { code: '0011000304', name: '遥控器外壳', spec: 'PC+ABS 哑光', productLineCode: 'KT', purchaser: '何芳' },
];

const SUPPLIES: Record<string, string[]> = {
  S001: ['0064000101', '0064000102', '0064000103', '0034000201', '0034000202', '0011000301', '0011000302'],
  S002: ['0064000103', '0064000104', '0034000203', '0034000204', '0011000302', '0011000303', '0011000304'],
};

type GrantWindow = 'valid' | 'expired' | 'notYet' | 'expiring';
/**
 * The grants from before the portal (imported, no application on record). S001's grant on
 * 0064000103 and S002's on 0034000204 end in 20 days (即将到期 · 续期); S002's grant on 0034000203
 * comes from an approved application instead (empower/demo.ts).
 */
const GRANTS: [string, string, GrantWindow][] = [
  ...['0064000101', '0064000102', '0034000201', '0011000302', '0011000303'].map(
    (m) => ['S001', m, 'valid'] as [string, string, GrantWindow],
  ),
  ['S001', '0064000103', 'expiring'],
  ['S001', '0034000202', 'expired'],
  ['S001', '0011000301', 'notYet'],
  ...['0064000103', '0064000104', '0034000204', '0011000302', '0011000303', '0011000304'].map(
    (m) => ['S002', m, m === '0034000204' ? 'expiring' : 'valid'] as [string, string, GrantWindow],
  ),
];

function grantWindow(kind: GrantWindow, now: number): { validFrom: Date; validUntil: Date } {
  if (kind === 'expired') return { validFrom: new Date(now - 400 * DAY), validUntil: new Date(now - 25 * DAY) };
  if (kind === 'notYet') return { validFrom: new Date(now + 14 * DAY), validUntil: new Date(now + 380 * DAY) };
  if (kind === 'expiring') return { validFrom: new Date(now - 345 * DAY), validUntil: new Date(now + 20 * DAY) };
  return { validFrom: new Date(now - 90 * DAY), validUntil: new Date(now + 275 * DAY) };
}

interface DemoFile {
  standardCode: string;
  name: string;
  caption: string;
  materialCode: string;
  category: FileCategory;
  secretLevel: SecretLevel;
  type: FileType;
  /** Versions oldest first, each published `daysAgo`; all but the last become HISTORY. */
  versions: { version: string; daysAgo: number; remark?: string }[];
  /** Withdrawn (the last version becomes OBSOLETE). */
  obsolete?: string;
}

const FILES: DemoFile[] = [
  {
    standardCode: 'HR-BX-D001',
    name: '冰箱门体总装图',
    caption: 'REFRIGERATOR DOOR ASSEMBLY',
    materialCode: '0064000101',
    category: 'DRAWING',
    secretLevel: 'SECRET',
    type: 'pdf',
    versions: [
      { version: 'A', daysAgo: 620 },
      { version: 'B', daysAgo: 380, remark: '门封槽尺寸调整' },
      { version: 'C', daysAgo: 75, remark: '增加防凝露加热丝走线' },
    ],
  },
  {
    standardCode: 'HR-BX-D002',
    name: '门体铰链安装图',
    caption: 'DOOR HINGE INSTALLATION',
    materialCode: '0064000101',
    category: 'DRAWING',
    secretLevel: 'INTERNAL',
    type: 'pdf',
    versions: [{ version: 'A', daysAgo: 410 }],
  },
  {
    standardCode: 'HR-BX-D003',
    name: '压缩机支架零件图',
    caption: 'COMPRESSOR BRACKET',
    materialCode: '0064000102',
    category: 'DRAWING',
    secretLevel: 'SECRET',
    type: 'pdf',
    versions: [
      { version: 'A', daysAgo: 500 },
      { version: 'B', daysAgo: 120, remark: '板厚由 2.5mm 改为 3mm' },
    ],
  },
  {
    standardCode: 'Q/HR-BX-S010',
    name: '压缩机支架焊接技术要求',
    caption: 'WELDING REQUIREMENTS',
    materialCode: '0064000102',
    category: 'STANDARD',
    secretLevel: 'INTERNAL',
    type: 'pdf',
    versions: [{ version: 'V1.0', daysAgo: 300 }],
  },
  {
    standardCode: 'HR-BX-D004',
    name: '蒸发器结构图',
    caption: 'EVAPORATOR STRUCTURE',
    materialCode: '0064000103',
    category: 'DRAWING',
    secretLevel: 'CONFIDENTIAL',
    type: 'pdf',
    versions: [{ version: 'A', daysAgo: 260 }],
  },
  {
    standardCode: 'HR-BX-D005',
    name: '蒸发器管路布置图',
    caption: 'EVAPORATOR PIPING',
    materialCode: '0064000103',
    category: 'DRAWING',
    secretLevel: 'SECRET',
    type: 'dxf',
    versions: [{ version: 'A', daysAgo: 240 }],
  },
  {
    standardCode: 'HR-BX-D006',
    name: '温控器面板丝印图',
    caption: 'THERMOSTAT PANEL PRINT',
    materialCode: '0064000104',
    category: 'DRAWING',
    secretLevel: 'INTERNAL',
    type: 'png',
    versions: [{ version: 'A', daysAgo: 200 }],
  },
  {
    standardCode: 'Q/HR-XYJ-S020',
    name: '内桶焊缝检验规范',
    caption: 'DRUM WELD INSPECTION',
    materialCode: '0034000201',
    category: 'SPEC',
    secretLevel: 'INTERNAL',
    type: 'pdf',
    versions: [
      { version: 'V1.0', daysAgo: 700 },
      { version: 'V2.0', daysAgo: 150, remark: '增加渗透检测要求' },
    ],
  },
  {
    standardCode: 'HR-XYJ-D101',
    name: '滚筒内桶零件图',
    caption: 'WASHER INNER DRUM',
    materialCode: '0034000201',
    category: 'DRAWING',
    secretLevel: 'SECRET',
    type: 'pdf',
    versions: [{ version: 'A', daysAgo: 330 }],
  },
  {
    standardCode: 'HR-XYJ-D102',
    name: '电机安装座毛坯图',
    caption: 'MOTOR MOUNT CASTING',
    materialCode: '0034000202',
    category: 'DRAWING',
    secretLevel: 'SECRET',
    type: 'pdf',
    versions: [{ version: 'A', daysAgo: 280 }],
  },
  {
    standardCode: 'HR-XYJ-D103',
    name: '门封圈截面图',
    caption: 'DOOR GASKET SECTION',
    materialCode: '0034000203',
    category: 'DRAWING',
    secretLevel: 'INTERNAL',
    type: 'pdf',
    versions: [{ version: 'A', daysAgo: 450 }],
    obsolete: '结构变更，由 HR-XYJ-D104 替代',
  },
  {
    standardCode: 'HR-XYJ-D104',
    name: '门封圈截面图（新结构）',
    caption: 'DOOR GASKET SECTION NEW',
    materialCode: '0034000203',
    category: 'DRAWING',
    secretLevel: 'INTERNAL',
    type: 'pdf',
    versions: [{ version: 'A', daysAgo: 90 }],
  },
  {
    standardCode: 'HR-XYJ-D105',
    name: '控制主板装配图',
    caption: 'CONTROL BOARD ASSEMBLY',
    materialCode: '0034000204',
    category: 'DRAWING',
    secretLevel: 'CONFIDENTIAL',
    type: 'pdf',
    versions: [
      { version: 'A', daysAgo: 390 },
      { version: 'B', daysAgo: 60, remark: '更换继电器型号' },
    ],
  },
  {
    standardCode: 'Q/HR-XYJ-S021',
    name: '控制主板焊接工艺规范',
    caption: 'PCB SOLDERING PROCESS',
    materialCode: '0034000204',
    category: 'STANDARD',
    secretLevel: 'PUBLIC',
    type: 'pdf',
    versions: [{ version: 'V1.0', daysAgo: 350 }],
  },
  {
    standardCode: 'HR-KT-D201',
    name: '室外机底盘零件图',
    caption: 'OUTDOOR UNIT BASE PAN',
    materialCode: '0011000301',
    category: 'DRAWING',
    secretLevel: 'SECRET',
    type: 'pdf',
    versions: [{ version: 'A', daysAgo: 180 }],
  },
  {
    standardCode: 'HR-KT-D202',
    name: '贯流风叶零件图',
    caption: 'CROSS-FLOW FAN',
    materialCode: '0011000302',
    category: 'DRAWING',
    secretLevel: 'SECRET',
    type: 'pdf',
    versions: [
      { version: 'A', daysAgo: 520 },
      { version: 'B', daysAgo: 210, remark: '叶片数由 35 改为 37' },
      { version: 'C', daysAgo: 30, remark: '动平衡等级提高至 G2.5' },
    ],
  },
  {
    standardCode: 'Q/HR-KT-S030',
    name: '风叶动平衡检验规范',
    caption: 'FAN BALANCE INSPECTION',
    materialCode: '0011000302',
    category: 'SPEC',
    secretLevel: 'INTERNAL',
    type: 'pdf',
    versions: [{ version: 'V1.0', daysAgo: 230 }],
  },
  {
    standardCode: 'HR-KT-D203',
    name: '冷凝器总成图',
    caption: 'CONDENSER ASSEMBLY',
    materialCode: '0011000303',
    category: 'DRAWING',
    secretLevel: 'SECRET',
    type: 'pdf',
    versions: [{ version: 'A', daysAgo: 160 }],
  },
  {
    standardCode: 'HR-KT-D204',
    name: '遥控器外壳零件图',
    caption: 'REMOTE CONTROL HOUSING',
    materialCode: '0011000304',
    category: 'DRAWING',
    secretLevel: 'INTERNAL',
    type: 'png',
    versions: [{ version: 'A', daysAgo: 140 }],
  },
  {
    standardCode: 'Q/HR-KT-S031',
    name: '外观件色差验收标准',
    caption: 'COLOUR DIFFERENCE ACCEPTANCE',
    materialCode: '0011000304',
    category: 'OTHER',
    secretLevel: 'PUBLIC',
    type: 'pdf',
    versions: [{ version: 'V1.0', daysAgo: 100 }],
  },
];

/** `YYYY-MM-DD` of a time in UTC+8, as a DATE value. */
const cstDay = (t: number) => cstDateValue(new Date(t));

/** The drawing of one version of a demo file (2 or 3 sheets, alternating). */
function specOf(f: DemoFile, fi: number, vi: number): DemoDrawingSpec {
  const v = f.versions[vi]!;
  return {
    type: f.type === 'png' || f.type === 'dxf' ? f.type : 'pdf',
    standardCode: f.standardCode,
    version: v.version,
    materialCode: f.materialCode,
    caption: f.caption,
    secretLevel: f.secretLevel,
    pages: 2 + ((fi + vi) % 2),
  };
}

/** Every drawing the demo archive holds: what the build draws ahead (db/demo-files.ts). */
export const DEMO_DRAWINGS: DemoDrawingSpec[] = FILES.flatMap((f, fi) => f.versions.map((_, vi) => specOf(f, fi, vi)));

/** Seeds the archive; the bytes go into storage first, the rows after (as an upload would). */
export async function seedDemoArchives(
  db: Db,
  storage: Storage,
  uploaders: { id: number; name: string }[],
): Promise<void> {
  const now = Date.now();
  const prepared = preparedDemoFiles();
  const rows = await Promise.all(
    FILES.flatMap((f, fi) =>
      f.versions.map(async (v, vi) => {
        // the bytes drawn at build time when there are, drawn now otherwise; hashed as stored either way
        const spec = specOf(f, fi, vi);
        const ready = prepared(spec);
        const source = ready ? createReadStream(ready) : Readable.from([Buffer.from(await drawDemoFile(spec))]);
        const { sha256, size } = await storage.put(source, UPLOAD_MAX_BYTES);
        const last = vi === f.versions.length - 1;
        const status: FileStatus = !last ? 'HISTORY' : f.obsolete ? 'OBSOLETE' : 'EFFECTIVE';
        const createdAt = new Date(now - v.daysAgo * DAY);
        const uploader = uploaders[(fi + vi) % uploaders.length]!;
        return {
          standardCode: f.standardCode,
          name: f.name,
          version: v.version,
          versionNo: vi + 1,
          materialCode: f.materialCode,
          category: f.category,
          secretLevel: f.secretLevel,
          status,
          effectiveDate: cstDay(createdAt.getTime() + 3 * DAY),
          uploaderId: uploader.id,
          uploaderName: uploader.name,
          fileName: `${f.standardCode.replace(/\//g, '-')}_${f.name}_${v.version}.${f.type}`,
          fileSize: size,
          fileType: f.type,
          sha256,
          remark: v.remark ?? null,
          createdAt,
          obsoletedAt: status === 'OBSOLETE' ? new Date(createdAt.getTime() + 300 * DAY) : null,
          obsoleteReason: status === 'OBSOLETE' ? (f.obsolete ?? null) : null,
        };
      }),
    ),
  );
  startPhase('seed: archive files stored');
  // ids in publishing order, so "newest first" (id desc) reads like the upload history
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

  // the seed-only batch insert (demo-batch.ts): one statement a table, no Prisma query compiled
  const seeded = new Date(now);
  await db.$transaction(async (tx) => {
    await insertRows(tx, 'product_line', PRODUCT_LINES);
    await insertRows(
      tx,
      'material',
      MATERIALS.map((m) => ({ ...m, createdAt: seeded })),
    );
    await insertRows(
      tx,
      'supplier_material',
      Object.entries(SUPPLIES).flatMap(([supplierCode, codes]) =>
        codes.map((materialCode) => ({ supplierCode, materialCode })),
      ),
    );
    await insertRows(
      tx,
      'empower_grant',
      GRANTS.map(([supplierCode, materialCode, kind]) => ({
        supplierCode,
        materialCode,
        ...grantWindow(kind, now),
        createdBy: 'demo3',
        imported: true,
        createdAt: seeded,
      })),
    );
    await insertRows(tx, 'standard_file', rows);
  });
}
