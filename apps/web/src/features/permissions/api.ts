/** The 按钮与列权限 page's calls: edit a rule, then refresh every page's buttons and columns. */
import { useQueryClient } from '@tanstack/react-query';
import { permissionsApi as api, type EndpointBody } from '@esm/contracts';
import { call } from '../../api/client.ts';

export const insertItem = (body: NonNullable<EndpointBody<typeof api.insert>>) => call(api.insert, body, { silent: true });
export const updateItem = (body: NonNullable<EndpointBody<typeof api.update>>) => call(api.update, body, { silent: true });
export const deleteItems = (ids: number[]) => call(api.deleteByIds, { ids }, { silent: true });

/** After an edit: the admin lists, the change log, and every page's buttons and columns. */
export function useRefreshPermissions() {
  const qc = useQueryClient();
  return () => Promise.all([api.page, api.changes, api.buttons, api.columns].map((e) => qc.invalidateQueries({ queryKey: [e.path] })));
}
