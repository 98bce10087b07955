/** The problem types and role table calls (contracts problemTypesApi): writes are `silent`, the dialogs show the refusal. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { problemTypesApi, type ProblemTypeCreate, type RoleCreate } from '@esm/contracts';
import { call } from '../../api/client.ts';

export const useRoleProductLines = () =>
  useQuery({
    queryKey: [problemTypesApi.productLines.path],
    queryFn: async () => (await call(problemTypesApi.productLines)).data,
    staleTime: 60_000,
  });
export const useSelectableUsers = (keyword: string) =>
  useQuery({
    queryKey: [problemTypesApi.selectUser.path, keyword],
    queryFn: async () => (await call(problemTypesApi.selectUser, { keyword })).data,
    staleTime: 30_000,
  });

export const createProblemType = (body: ProblemTypeCreate) => call(problemTypesApi.create, body, { silent: true });
export const updateProblemType = (id: number, body: ProblemTypeCreate) =>
  call(problemTypesApi.update, { id, ...body }, { silent: true });
export const deleteProblemType = (id: number) => call(problemTypesApi.remove, { id }, { silent: true });
export const addRole = (body: RoleCreate) => call(problemTypesApi.addRole, body, { silent: true });
export const deleteRole = (id: number) => call(problemTypesApi.deleteRole, { id }, { silent: true });

export function useRefreshProblemTypes() {
  const qc = useQueryClient();
  return () =>
    Promise.all(
      [problemTypesApi.page, problemTypesApi.roles, problemTypesApi.supplierList].map((e) =>
        qc.invalidateQueries({ queryKey: [e.path] }),
      ),
    );
}
