/**
 * Malformed bodies on every route that declares one: a caller allowed on the route
 * sends junk and gets a 4xx envelope with a readable message, never a 5xx. Whether a body is
 * junk for a route is decided by the route's own published schema (the OpenAPI document built
 * from the same zod schemas), so a new route is covered the day it is added.
 */
import { sessionApi, API_BASE, visitsApi } from '@esm/contracts';
import Ajv from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, hasChinese, login, callApi } from './helpers.ts';

const t = await buildTestApp();
const cookies = new Map<number, string>();

// Bodies sent to user/login here are refused before an attempt counts; any that did count
// come from an address of their own, off 127.0.0.1's rate limit.
afterAll(async () => {
  await t.db.prisma.loginAttempt.deleteMany({ where: { ip: '10.40.0.1' } });
  await t.close();
});

type Route = (typeof t.app.apiRoutes)[number];

/** A user type allowed on the route (undefined: no session needed). */
function callerFor(route: Route): number | undefined {
  if (route.access === 'public') return undefined;
  if (route.access === 'session') return 3;
  return route.access.includes(3) ? 3 : route.access[0];
}

async function cookieFor(route: Route): Promise<string | undefined> {
  const type = callerFor(route);
  if (type === undefined) return undefined;
  const cur = cookies.get(type) && (await callApi(t.app, sessionApi.current, undefined, cookies.get(type))).json().code;
  if (cur !== '0') cookies.set(type, await login(t.app, `demo${type}`));
  return cookies.get(type);
}

const doc = (
  t.app as unknown as {
    swagger(): {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: object }> } }>>;
    };
  }
).swagger();
const ajv = new Ajv({ strict: false, allErrors: true });

/** The route's published JSON body schema. */
function bodySchema(route: Route): object {
  const op = doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
  return op?.requestBody?.content?.['application/json']?.schema ?? {};
}
/**
 * The document is OpenAPI 3.0, where `exclusiveMinimum: true` qualifies `minimum` (zod's
 * positive()); Ajv speaks JSON Schema, where it is the bound itself. Rewrite before compiling.
 */
function asJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = asJsonSchema(v);
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] && typeof out[bound] === 'number') out[flag] = out[bound];
    else delete out[flag];
    if (typeof out[flag] === 'number') delete out[bound];
  }
  return out;
}
/** A schema that constrains nothing (the route ignores its body, e.g. logout's legacy { a: 1 }). */
const acceptsAnything = (schema: object) =>
  Object.keys(schema).filter((k) => !['description', 'default'].includes(k)).length === 0;

const JSON_BODIES: [string, unknown][] = [
  ['an array', []],
  ['an array of objects', [{ account: 'demo3' }]],
  ['a string', 'x'],
  ['a number', 123],
  ['true', true],
  ['null', null],
  ['bad paging', { results: 'abc', page: -1 }],
  ['page size over the limit', { results: 100000, page: 1 }],
  ['bad sort', { sortField: 'password_hash', sortOrder: 'sideways' }],
  ['account as a number', { account: 123 }],
  ['operator injection', { account: { $ne: '' }, password: { $gt: '' }, menuName: { $gt: '' }, path: ['x'] }],
  [
    'overlong strings',
    {
      account: 'a'.repeat(5000),
      password: 'p'.repeat(5000),
      menuName: 'm'.repeat(5000),
      path: '/'.repeat(5000),
      keyword: 'k'.repeat(5000),
    },
  ],
  ['deep nesting', JSON.parse('['.repeat(2000) + ']'.repeat(2000))],
];

const RAW_BODIES: [string, string][] = [
  ['non-JSON text', 'account=demo3&password=x'],
  ['NaN', 'NaN'],
  ['truncated JSON', '{"account": "demo3", '],
  ['an empty body', ''],
  ['single quotes', "{'account': 'demo3'}"],
  // Fastify's JSON parser refuses prototype pollution outright, whatever the route's schema.
  ['a __proto__ key', '{"__proto__": {"admin": true}, "account": "demo3", "password": "x"}'],
  ['a constructor.prototype key', '{"constructor": {"prototype": {"admin": true}}}'],
];

function expectReadableRefusal(res: { statusCode: number; body: string; json(): any }) {
  expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, res.body).toBeLessThan(500);
  const body = res.json();
  expect(body.success).toBe(false);
  expect(body.data).toBeNull();
  expect(typeof body.message).toBe('string');
  expect(body.message.trim().length).toBeGreaterThan(0);
  expect(hasChinese(body.message), body.message).toBe(true);
  // Nothing internal leaks into the message.
  expect(body.message).not.toMatch(/prisma|stack|at \w+ \(|undefined|\[object Object\]/i);
  if (body.errors)
    for (const e of body.errors) expect(hasChinese(e.message) || /\d/.test(e.message), e.message).toBe(true);
}

const withBody = t.app.apiRoutes.filter((r) => r.hasBody);

describe('routes with a body', () => {
  it('are the ones expected (the walk is not empty)', () => {
    expect(withBody.map((r) => r.url)).toEqual(
      expect.arrayContaining([
        `${API_BASE}/${sessionApi.login.path}`,
        `${API_BASE}/${visitsApi.visit.path}`,
        `${API_BASE}/${visitsApi.page.path}`,
      ]),
    );
  });
});

describe.each(withBody.map((r) => [`${r.method} ${r.url}`, r] as const))('%s', (_name, route) => {
  const schema = bodySchema(route);
  const validate = ajv.compile(asJsonSchema(schema) as object);

  it.each(JSON_BODIES)('%s', async (_label, body) => {
    const cookie = await cookieFor(route);
    const res = await t.app.inject({
      method: route.method as 'POST',
      url: route.url,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(body),
      remoteAddress: '10.40.0.1',
    });
    expect(res.statusCode, res.body).toBeLessThan(500);
    if (validate(body) || acceptsAnything(schema)) {
      // The schema accepts this body: the route may serve it, or refuse it for a business reason.
      if (res.statusCode >= 400) expectReadableRefusal(res);
    } else {
      expectReadableRefusal(res);
      if (res.statusCode === 400)
        expect(Array.isArray(res.json().errors) && res.json().errors.length > 0, res.body).toBe(true);
    }
  });

  it.each(RAW_BODIES)('%s sent as application/json → 400', async (_label, raw) => {
    const cookie = await cookieFor(route);
    const res = await t.app.inject({
      method: route.method as 'POST',
      url: route.url,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: raw,
      remoteAddress: '10.40.0.1',
    });
    expect(res.statusCode, res.body).toBe(400);
    expectReadableRefusal(res);
  });

  it('an unsupported content type → 415', async () => {
    const cookie = await cookieFor(route);
    const res = await t.app.inject({
      method: route.method as 'POST',
      url: route.url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      payload: 'account=demo3&password=x',
      remoteAddress: '10.40.0.1',
    });
    expect(res.statusCode).toBe(415);
    expectReadableRefusal(res);
  });
});

// ---- field classes ----------------------------------------------------------
// For every property of every route's published body schema: a value of a class that once
// reached the database and answered 500 — a NUL character in a string, a day that matches the
// pattern but does not exist, an id beyond int4, a value coerced loosely into an integer — is a
// 400 naming that property. The rest of the body is a minimal valid one made from the schema.

type JsonSchema = {
  type?: string | string[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

const variants = (s: JsonSchema): JsonSchema[] => (s.anyOf ? s.anyOf.flatMap(variants) : [s]);
const takes = (s: JsonSchema, type: string) =>
  variants(s).some((v) => v.type === type || (Array.isArray(v.type) && v.type.includes(type)));

/** A valid value for a schema node (the first enum value, a small number, 'x', a day for date fields). */
function sample(s: JsonSchema, name = ''): unknown {
  if (s.enum) return s.enum[0];
  if (s.default !== undefined) return s.default;
  if (/date/i.test(name)) return '2026-01-01';
  const v = variants(s).find((x) => x.type !== 'null') ?? s;
  if (v.type === 'object')
    return Object.fromEntries((v.required ?? []).map((k) => [k, sample(v.properties?.[k] ?? {}, k)]));
  if (v.type === 'array') return [sample(v.items ?? {}, name)];
  if (v.type === 'integer' || v.type === 'number') return Math.max(1, v.minimum ?? 1);
  if (v.type === 'boolean') return true;
  return 'x';
}

const NUMBER_CLASSES: [string, unknown][] = [
  ['an id beyond int4', 2 ** 31],
  ['2^53', 2 ** 53],
  ['true', true],
  ['[6]', [6]],
  ['"0x6"', '0x6'],
  ['1.5', 1.5],
];

interface FieldCase {
  route: Route;
  prop: string;
  label: string;
  value: unknown;
}

const fieldCases: FieldCase[] = withBody.flatMap((route) => {
  const schema = bodySchema(route) as JsonSchema;
  const out: FieldCase[] = [];
  for (const [prop, s] of Object.entries(schema.properties ?? {})) {
    const item = takes(s, 'array') ? (variants(s).find((v) => v.type === 'array')?.items ?? {}) : undefined;
    const wrap = (v: unknown) => (item ? [v] : v);
    const node = item ?? s;
    if (takes(node, 'string') && !node.enum)
      out.push({ route, prop, label: 'a NUL character', value: wrap('a\u0000b') });
    if (/date/i.test(prop))
      for (const day of ['2026-02-30', '9999-99-99', '2025-13-01'])
        out.push({ route, prop, label: `impossible day ${day}`, value: day });
    if (takes(node, 'integer') || takes(node, 'number'))
      for (const [label, value] of NUMBER_CLASSES) out.push({ route, prop, label, value: wrap(value) });
  }
  return out;
});

describe('field classes that once answered 500', () => {
  it('cover NUL, impossible days and loose integers on many routes', () => {
    expect(
      new Set(fieldCases.filter((c) => c.label === 'a NUL character').map((c) => c.route.url)).size,
    ).toBeGreaterThan(10);
    expect(fieldCases.some((c) => c.label.startsWith('impossible day'))).toBe(true);
    expect(fieldCases.some((c) => c.label === 'an id beyond int4' && c.prop === 'id')).toBe(true);
  });

  it.each(fieldCases.map((c) => [`${c.route.url} ${c.prop}: ${c.label}`, c] as const))(
    '%s → 400 naming the field',
    async (_name, c) => {
      const cookie = await cookieFor(c.route);
      const body = { ...(sample(bodySchema(c.route) as JsonSchema) as object), [c.prop]: c.value };
      const res = await t.app.inject({
        method: c.route.method as 'POST',
        url: c.route.url,
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        payload: JSON.stringify(body),
        remoteAddress: '10.40.0.1',
      });
      expect(res.statusCode, res.body).toBe(400);
      expectReadableRefusal(res);
      expect(
        res.json().errors.map((e: { field: string }) => e.field.split('.')[0]),
        res.body,
      ).toContain(c.prop);
    },
  );
});
