/**
 * db/demo-batch.ts insertRows: the demo seed's access-log rows written as one JSON parameter must
 * be the rows Prisma's createMany writes (same rows, cheaper), ids in the given order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prisma } from '../src/generated/prisma/client.ts';
import type { Database } from '../src/db/database.ts';
import { insertRows } from '../src/db/demo-batch.ts';
import { openTestDatabase } from './helpers.ts';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.close();
});

describe('insertRows', () => {
  it('writes what createMany writes, in order', async () => {
    const rows = (tag: string): Prisma.AccessLogCreateManyInput[] => [
      {
        action: 'KEEPSECRET',
        outcome: 'OK',
        userId: 1,
        userAccount: `${tag}-a`,
        userName: '海达精密-孙静',
        userType: 2,
        supplierCode: 'S001',
        supplierName: '青岛海达精密机械有限公司',
        fileName: '保密协议',
        version: 'V1',
        ip: '10.21.3.20',
        userAgent: 'Mozilla/5.0',
        createdAt: new Date('2026-10-24T01:02:03.456Z'),
      },
      {
        action: 'VIEW',
        outcome: 'OK',
        userId: 2,
        userAccount: `${tag}-b`,
        userName: '周杰',
        userType: 3,
        supplierCode: null,
        supplierName: null,
        fileId: 7,
        standardCode: 'STD-7',
        fileName: 'a.pdf',
        version: 'A',
        materialCode: '0034000202',
        materialName: '门体',
        ip: '10.1.0.11',
        userAgent: 'Mozilla/5.0',
        createdAt: new Date('2026-10-25T23:59:59.999Z'),
      },
      {
        action: 'VIEW',
        outcome: 'REFUSED',
        reason: '该物料的图纸授权已于 2026/10/1 过期，请重新申请授权',
        userId: 1,
        userAccount: `${tag}-c`,
        userName: 'O\'Neil "x" \\ 孙',
        userType: 2,
        supplierCode: 'S001',
        supplierName: '青岛海达精密机械有限公司',
        fileId: 8,
        standardCode: 'STD-8',
        fileName: 'b.pdf',
        version: 'B',
        materialCode: '0034000203',
        materialName: '门体',
        ip: '10.21.3.21',
        userAgent: 'Mozilla/5.0',
        createdAt: new Date('2026-10-26T00:00:00.000Z'),
      },
    ];
    await db.prisma.accessLog.createMany({ data: rows('cm') });
    expect(await insertRows(db.prisma, 'access_log', rows('ir'))).toBe(3);
    const read = async (tag: string) =>
      (
        await db.prisma.accessLog.findMany({
          where: { userAccount: { startsWith: `${tag}-` } },
          orderBy: { id: 'asc' },
        })
      ).map(({ id: _id, chainSeq: _seq, prevHash: _prev, rowHash: _hash, userAccount, ...r }) => ({
        ...r,
        userAccount: userAccount.slice(tag.length),
      }));
    const viaPrisma = await read('cm');
    expect(viaPrisma.map((r) => r.userAccount)).toEqual(['-a', '-b', '-c']);
    expect(await read('ir')).toEqual(viaPrisma);
  });
});
