/** main/getRoleFunction: the menu entries of the session's user type. */
import { z } from 'zod';
import { USER_TYPES } from './codes.ts';
import { endpoint } from './endpoint.ts';
import { ZEnvelope } from './envelope.ts';
import { MENU_PATH } from './routes.ts';

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

export const menuApi = {
  roleFunction: endpoint({
    path: MENU_PATH,
    access: USER_TYPES,
    tag: 'menu',
    summary: '当前用户类型的菜单',
    response: ZEnvelope(z.array(ZMenuEntry)),
  }),
} as const;
