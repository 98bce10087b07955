/**
 * db/rows.ts sends hot reads through the pg pool instead of Prisma's $queryRaw: the rows must be
 * the same values of the same types, whatever the process' time zone (pg's own defaults read a
 * `timestamp` as local time and send a Date with a local offset, which a `timestamp` ignores).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../src/generated/prisma/client.ts';
import { familyName, jsonRow, readJsonRows, readRows, timestampIso, timestampUtc } from '../src/db/rows.ts';
import type { Database } from '../src/db/database.ts';
import { openTestDatabase } from './helpers.ts';

let db: Database;
const tz = process.env.TZ;

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  process.env.TZ = tz;
  await db.close();
});

const at = new Date('2026-03-04T05:06:07.890Z');
const probe = () =>
  Prisma.sql`SELECT ${at}::timestamp(3) AS ts, '2026-03-04'::date AS d, 12345678901::int8 AS big, 7::int2 AS small,
    '{"a":[1,"x"],"b":null}'::jsonb AS j, 'text'::varchar AS s, true AS flag, NULL::timestamp(3) AS none,
    ${at}::timestamp(3) = '2026-03-04 05:06:07.890'::timestamp(3) AS param_is_utc`;

describe('readRows (direct pg reads) answers what $queryRaw answers', () => {
  for (const zone of ['UTC', 'Asia/Shanghai', 'America/New_York']) {
    it(`in time zone ${zone}`, async () => {
      process.env.TZ = zone;
      const [direct] = await readRows<Record<string, unknown>>(db.prisma, probe());
      const [viaPrisma] = await db.prisma.$queryRaw<Record<string, unknown>[]>(probe());
      expect(direct).toEqual(viaPrisma);
      expect(direct).toEqual({
        ts: at,
        d: new Date('2026-03-04T00:00:00.000Z'),
        big: 12345678901n,
        small: 7,
        j: { a: [1, 'x'], b: null },
        s: 'text',
        flag: true,
        none: null,
        param_is_utc: true,
      });
    });
  }

  it('goes through the pool on Postgres and through Prisma inside a transaction', async () => {
    const rows = await db.prisma.$transaction(async (tx) =>
      readRows<{ n: number }>(tx as never, Prisma.sql`SELECT 1::int AS n`),
    );
    expect(rows).toEqual([{ n: 1 }]);
  });
});

describe('readJsonRows answers jsonRow of what readRows answers', () => {
  const withZone = () =>
    Prisma.sql`SELECT ${at}::timestamp(3) AS ts, '2026-03-04 05:06:07.8'::timestamp AS ts1, '2026-03-04 05:06:07'::timestamp AS ts0,
      '2026-03-04 05:06:07.123456'::timestamp AS ts6, '2026-03-04'::date AS d, '2026-03-04 05:06:07.89+00'::timestamptz AS tz,
      NULL::timestamp AS none, 7::int2 AS small, 'text'::varchar AS s`;
  for (const zone of ['UTC', 'Asia/Shanghai']) {
    it(`in time zone ${zone}, through the pool and through Prisma in a transaction`, async () => {
      process.env.TZ = zone;
      const [row] = await readRows<object>(db.prisma, withZone());
      const [json] = await readJsonRows<object>(db.prisma, withZone());
      expect(json).toEqual(jsonRow(row!));
      expect(json).toMatchObject({
        ts: '2026-03-04T05:06:07.890Z',
        ts1: '2026-03-04T05:06:07.800Z',
        ts0: '2026-03-04T05:06:07.000Z',
        ts6: '2026-03-04T05:06:07.123Z',
        d: '2026-03-04T00:00:00.000Z',
        tz: '2026-03-04T05:06:07.890Z',
        none: null,
      });
      const [viaPrisma] = await db.prisma.$transaction(async (tx) => readJsonRows<object>(tx as never, withZone()));
      expect(viaPrisma).toEqual(json);
    });
  }
});

describe('a family of prepared statements (familyName)', () => {
  it('names each text once, the same name every time, and sends texts past the cap unprepared', () => {
    const a = familyName('esm_test_family', 'SELECT 1');
    expect(a).toBe('esm_test_family_0');
    expect(familyName('esm_test_family', 'SELECT 2')).toBe('esm_test_family_1');
    expect(familyName('esm_test_family', 'SELECT 1')).toBe(a);
    for (let i = 3; i <= 64; i++) familyName('esm_test_family', `SELECT ${i}`);
    expect(familyName('esm_test_family', 'SELECT 64')).toBe('esm_test_family_63');
    expect(familyName('esm_test_family', 'SELECT 65')).toBeUndefined();
    expect(familyName('esm_test_other', 'SELECT 65')).toBe('esm_test_other_0');
  });

  it('a prepared statement answers for the values of each call, whichever came first', async () => {
    const q = (n: number) => Prisma.sql`SELECT ${n}::int + 1 AS next`;
    const name = familyName('esm_test_values', q(0).text);
    for (const n of [1, 41, 7, 1000])
      expect(await readRows<{ next: number }>(db.prisma, q(n), name)).toEqual([{ next: n + 1 }]);
  });
});

describe('timestampUtc reads a timestamp as the date string parse did', () => {
  const byParse = (v: string) => new Date(`${v.replace(' ', 'T')}Z`).getTime();
  it('for every fraction length, and the values it leaves to the parse', () => {
    for (const v of [
      '2026-03-04 05:06:07',
      '2026-03-04 05:06:07.8',
      '2026-03-04 05:06:07.89',
      '2026-03-04 05:06:07.890',
      '2026-03-04 05:06:07.8909',
      '2026-03-04 05:06:07.99999',
      '2026-03-04 05:06:07.999999',
      '2024-02-29 23:59:59.000001',
      '0044-03-15 00:00:00',
      '0044-03-15 00:00:00 BC',
      'infinity',
      '-infinity',
      '10000-01-01 00:00:00',
    ])
      expect(timestampUtc(v).getTime(), v).toEqual(byParse(v));
  });
  it('for dates across the years 1000–9999 (a deterministic sample)', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const from = Date.UTC(1000, 0, 1);
    const span = Date.UTC(9999, 11, 31) - from;
    for (let i = 0; i < 5000; i++) {
      const iso = new Date(from + Math.floor(next() * span)).toISOString();
      const fraction = String(Math.floor(next() * 1e6))
        .padStart(6, '0')
        .slice(0, 1 + (i % 6));
      const v = `${iso.slice(0, 10)} ${iso.slice(11, 19)}${i % 7 ? `.${fraction}` : ''}`;
      expect(timestampUtc(v).getTime(), v).toEqual(byParse(v));
      expect(timestampIso(v), v).toBe(new Date(byParse(v)).toISOString());
    }
  });
  it('timestampIso writes what toISOString wrote, and refuses what it refused', () => {
    for (const v of [
      '2026-03-04 05:06:07',
      '2026-03-04 05:06:07.8',
      '2026-03-04 05:06:07.999999',
      '0044-03-15 00:00:00',
    ])
      expect(timestampIso(v), v).toBe(new Date(byParse(v)).toISOString());
    expect(() => timestampIso('infinity')).toThrow(RangeError);
  });
});
