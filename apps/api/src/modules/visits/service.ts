import type { z } from 'zod';
import type { VisitLogRow, ZVisitLogRequestSchema } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import { pageWindow } from '../../lib/envelope.ts';
import { dayRange } from '../../lib/dates.ts';

type Query = z.output<typeof ZVisitLogRequestSchema>;

export async function searchVisits(db: Db, q: Query): Promise<{ rows: VisitLogRow[]; total: number }> {
  const where: Prisma.VisitEventWhereInput = {
    ...(q.keyword ? { OR: [{ userCode: { contains: q.keyword, mode: 'insensitive' } }, { userName: { contains: q.keyword, mode: 'insensitive' } }] } : {}),
    ...(q.userType ? { userType: q.userType } : {}),
    ...(q.menuName ? { menuName: { contains: q.menuName, mode: 'insensitive' } } : {}),
    ...(q.dateFrom || q.dateTo ? { createdAt: dayRange(q.dateFrom, q.dateTo) } : {}),
  };
  const order = q.sortOrder === 'ascend' ? 'asc' : 'desc';
  const orderBy: Prisma.VisitEventOrderByWithRelationInput[] = q.sortField && q.sortOrder ? [{ [q.sortField]: order }, { id: order }] : [{ id: 'desc' }];
  const [rows, total] = await Promise.all([
    db.visitEvent.findMany({ where, orderBy, ...pageWindow(q) }),
    db.visitEvent.count({ where }),
  ]);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      userType: r.userType,
      userCode: r.userCode,
      userName: r.userName,
      menuName: r.menuName,
      path: r.path,
      ip: r.ip,
      createdAt: r.createdAt.toISOString(),
    })),
    total,
  };
}
