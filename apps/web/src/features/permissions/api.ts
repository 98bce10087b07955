/** The 按钮与列权限 page's calls: edit a rule, then refresh every page's buttons and columns. */
import { useQueryClient } from '@tanstack/react-query';
import { permissionsApi, type EndpointBody } from '@esm/contracts';
import { call } from '../../api/client.ts';

export const insertItem = (body: NonNullable<EndpointBody<typeof permissionsApi.insert>>) =>
  call(permissionsApi.insert, body, { silent: true });
export const updateItem = (body: NonNullable<EndpointBody<typeof permissionsApi.update>>) =>
  call(permissionsApi.update, body, { silent: true });
export const deleteItems = (ids: number[]) => call(permissionsApi.deleteByIds, { ids }, { silent: true });

/** After an edit: the admin lists, the change log, and every page's buttons and columns. */
export function useRefreshPermissions() {
  const qc = useQueryClient();
  return () =>
    Promise.all(
      [permissionsApi.page, permissionsApi.changes, permissionsApi.buttons, permissionsApi.columns].map((e) =>
        qc.invalidateQueries({ queryKey: [e.path] }),
      ),
    );
}
