/** main/getRoleFunction: the menu of the signed-in user's type. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { menuApi } from '@esm/contracts';
import { call } from '../../api/client.ts';

export const menuQuery = (userId: number) =>
  queryOptions({
    queryKey: ['menu', userId],
    queryFn: async () => (await call(menuApi.roleFunction)).data,
    staleTime: 10 * 60_000,
  });
export const useMenu = (userId: number | undefined) =>
  useQuery({ ...menuQuery(userId ?? 0), enabled: Boolean(userId) });
