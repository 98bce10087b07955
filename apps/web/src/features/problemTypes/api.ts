/** The problem types and role table calls (contracts problemTypesApi): writes are `silent`, the dialogs show the refusal. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { problemTypesApi as api, type ProblemTypeCreate, type RoleCreate } from '@esm/contracts';
import { call } from '../../api/client.ts';

export const useRoleProductLines = () => useQuery({ queryKey: [api.productLines.path], queryFn: async () => (await call(api.productLines)).data, staleTime: 60_000 });
export const useSelectableUsers = (keyword: string) =>
  useQuery({ queryKey: [api.selectUser.path, keyword], queryFn: async () => (await call(api.selectUser, { keyword })).data, staleTime: 30_000 });

export const createProblemType = (body: ProblemTypeCreate) => call(api.create, body, { silent: true });
export const updateProblemType = (id: number, body: ProblemTypeCreate) => call(api.update, { id, ...body }, { silent: true });
export const deleteProblemType = (id: number) => call(api.remove, { id }, { silent: true });
export const addRole = (body: RoleCreate) => call(api.addRole, body, { silent: true });
export const deleteRole = (id: number) => call(api.deleteRole, { id }, { silent: true });

export function useRefreshProblemTypes() {
  const qc = useQueryClient();
  return () => Promise.all([api.page, api.roles, api.supplierList].map((e) => qc.invalidateQueries({ queryKey: [e.path] })));
}
