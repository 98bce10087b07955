import { z } from 'zod';
import { ZEnvelope } from './envelope.ts';

export const ZLoginRequestSchema = z.object({
  account: z
    .string({ error: '请输入账号' })
    .trim()
    .min(1, '请输入账号')
    .max(64, '账号不能超过 64 个字符'),
  password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码不能超过 128 个字符'),
});
export type LoginRequest = z.infer<typeof ZLoginRequestSchema>;

export const ZCurrentUser = z.object({
  id: z.number().int(),
  account: z.string(),
  type: z.number().int(),
  name: z.string(),
  nick: z.string(),
  supplierCode: z.string().nullable(),
  supplierName: z.string().nullable(),
  /** Vendor shows nick, internal shows name (spec §3). */
  displayName: z.string(),
  /** The type's landing page (spec §2). */
  defaultPath: z.string(),
});
export type CurrentUser = z.infer<typeof ZCurrentUser>;

/** user/current: code "0" with the user; on failure code 201..205 or 10000007 (see codes.ts). */
export const ZCurrentUserResponseSchema = ZEnvelope(ZCurrentUser.nullable()).extend({
  /** Where the blocking session dialog sends the user (the company home page). */
  homeUrl: z.string().optional(),
});

export const ZLoginResponseSchema = ZEnvelope(ZCurrentUser.nullable());

export const ZMenuEntry = z.object({
  id: z.number().int(),
  cn: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  router: z.string(),
  /** Parent id: null for top-level groups and entries, -1 for hidden entries. */
  mpid: z.number().int().nullable(),
});
export type MenuEntry = z.infer<typeof ZMenuEntry>;
export const ZMenuResponseSchema = ZEnvelope(z.array(ZMenuEntry));
