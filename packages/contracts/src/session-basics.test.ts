import { describe, expect, it } from 'vitest';
import { ZLoginRequestSchema, checkLoginField } from './index.ts';

/** The login page checks its fields without zod (session-basics.ts); it must say what the server's schema says. */
describe('checkLoginField agrees with ZLoginRequestSchema', () => {
  const values: unknown[] = [
    undefined,
    null,
    5,
    '',
    ' ',
    '   ',
    'a',
    ' demo3 ',
    'x'.repeat(64),
    ` ${'x'.repeat(64)} `,
    'x'.repeat(65),
    'x'.repeat(128),
    'x'.repeat(129),
    'a\u0000b',
    '\u0000',
    'Esm@2026',
  ];
  for (const field of ['account', 'password'] as const) {
    it(field, () => {
      for (const value of values) {
        const r = ZLoginRequestSchema.shape[field].safeParse(value);
        expect(checkLoginField(field, value), `${field} = ${JSON.stringify(value)}`).toBe(
          r.success ? undefined : r.error.issues[0]!.message,
        );
      }
    });
  }
});
