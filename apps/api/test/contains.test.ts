/**
 * "Contains" filters (lib/list.ts containsText) on a column with a bigram index: the same rows
 * as a plain strpos(lower(…)) test for 1-, 2- and 3-character texts, mixed case, Latin, spaces
 * and punctuation, the caller's wildcards taken literally — whether the bigram index or a
 * sequential read answers (both are forced here); and the planner does use the index for a
 * two-character text. Rows are access_log rows with a supplier code of this file's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logsApi } from '@esm/contracts';
import { Prisma } from '../src/generated/prisma/client.ts';
import { bigramIndexed, containsText, keywordSql, whereSql } from '../src/lib/list.ts';
import { buildTestApp, login, type TestApp, callApi } from './helpers.ts';
import { unique } from './factories.ts';

let t: TestApp;
let admin: string;
const S = `CT${unique()}`;

const NAMES = [
  '孙静',
  '孙静伟',
  '王孙静',
  '孙 静',
  '孙-静',
  '海达-孙静',
  'ABC公司',
  'abc',
  'AbX',
  'a%b',
  'a_b',
  'x\\y',
  '100%',
  '张三',
  '李',
  '',
  'Straße 孙',
  'ÄÖ静',
];
const ACCOUNTS = ['sun_jing', 'SUNJ01', 'wang%', 'li_lei', 'abc', 'zz'];

const NEEDLES = [
  '孙',
  '静',
  '孙静',
  '静伟',
  '孙静伟',
  '王孙',
  '孙 ',
  ' 静',
  '-孙',
  '孙-静',
  'ab',
  'AB',
  'aB',
  'bx',
  'abc',
  'ABC',
  'a%',
  '%',
  '_',
  'a_',
  '%b',
  '\\',
  'x\\',
  '0%',
  'ß',
  'SS',
  'äö',
  'ÄÖ',
  '三',
  'z',
  'zz',
  'Z',
  '无此',
  'sun',
  'J0',
];

beforeAll(async () => {
  t = await buildTestApp();
  admin = await login(t.app, 'demo3');
  const rows = NAMES.flatMap((userName, i) => ({ userName, userAccount: ACCOUNTS[i % ACCOUNTS.length]! }));
  await t.db.prisma.accessLog.createMany({
    data: rows.map((r) => ({
      action: 'VIEW',
      outcome: 'OK',
      supplierCode: S,
      userId: 1,
      userType: 2,
      ...r,
      createdAt: new Date('2026-03-01T00:00:00Z'),
    })),
  });
  await t.db.prisma.$executeRawUnsafe('ANALYZE access_log');
});

afterAll(async () => {
  await t.db.prisma.accessLog.deleteMany({ where: { supplierCode: S } });
  await t.close();
});

type Scan = 'index' | 'seq';

/** The ids of this file's rows matching `condition`, with the planner pushed to one way of reading. */
async function matching(condition: Prisma.Sql, scan: Scan): Promise<number[]> {
  return t.db.prisma.$transaction(async (tx) => {
    if (scan === 'index') await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
    else await tx.$executeRawUnsafe('SET LOCAL enable_bitmapscan = off');
    const rows = await tx.$queryRaw<{ id: number }[]>(
      Prisma.sql`SELECT id FROM access_log ${whereSql([condition, Prisma.sql`supplier_code = ${S}`])} ORDER BY id`,
    );
    return rows.map((r) => r.id);
  });
}

const reference = (column: string, text: string) =>
  Prisma.sql`strpos(lower(${Prisma.raw(column)}), lower(${text})) > 0`;

describe('containsText on a bigram-indexed column', () => {
  it.each(NEEDLES)('"%s": the same rows as strpos(lower(…)), by index and by sequential read', async (needle) => {
    for (const column of ['user_name', 'user_account']) {
      const expected = await matching(reference(column, needle), 'seq');
      expect(await matching(containsText(bigramIndexed(column), needle), 'index'), `${column} by index`).toEqual(
        expected,
      );
      expect(
        await matching(containsText(bigramIndexed(column), needle), 'seq'),
        `${column} by sequential read`,
      ).toEqual(expected);
      expect(await matching(containsText(column, needle), 'seq'), `${column} without bigrams`).toEqual(expected);
    }
    const either = Prisma.sql`(${reference('user_account', needle)} OR ${reference('user_name', needle)})`;
    const expected = await matching(either, 'seq');
    expect(
      await matching(
        keywordSql([bigramIndexed('user_account'), bigramIndexed('user_name')], needle) as Prisma.Sql,
        'index',
      ),
    ).toEqual(expected);
  });

  it('finds what it should (the reference is not trivially empty)', async () => {
    expect(await matching(containsText(bigramIndexed('user_name'), '孙静'), 'index')).toHaveLength(4);
    expect(await matching(containsText(bigramIndexed('user_name'), 'AB'), 'index')).toHaveLength(3);
    expect(await matching(containsText(bigramIndexed('user_name'), 'a%'), 'index')).toHaveLength(1);
    expect(await matching(containsText(bigramIndexed('user_name'), '_'), 'index')).toHaveLength(1);
  });

  it('reads a two-character text through the bigram indexes (the plan, not a time)', async () => {
    const plan = await t.db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
      const where = whereSql([keywordSql([bigramIndexed('user_account'), bigramIndexed('user_name')], '孙静')]);
      const rows = await tx.$queryRaw<{ 'QUERY PLAN': string }[]>(
        Prisma.sql`EXPLAIN SELECT id FROM access_log ${where}`,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('access_log_user_name_bigram_idx');
    expect(plan).toContain('access_log_user_account_bigram_idx');
  });

  it('the log page filters a two-character user the same way', async () => {
    const res = await callApi(t.app, logsApi.VIEW, { supplierCode: S, user: '孙静', results: 100 }, admin);
    expect(res.statusCode, res.body).toBe(200);
    const names = (res.json().data as { userName: string }[]).map((r) => r.userName).sort();
    expect(names).toEqual(['孙静', '孙静伟', '海达-孙静', '王孙静'].sort());
  });
});
