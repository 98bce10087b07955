/**
 * What a page may use: asked once per page (menuBtnPermission/selectBtnPermission,
 * hasColPermission) through react-query, cached per page, refreshed when the 按钮与列权限 page
 * changes a rule. The server enforces the same rules; hiding here only spares the user a refusal.
 */
import { useMemo } from 'react';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { permissionsApi, type ColumnMode, type ColumnSetDecl, type EndpointDef } from '@esm/contracts';
import { call } from '../api/client.ts';
import { ahead } from '../api/ahead.ts';

/** Rules change rarely: a page asks again after this long, or at once after an edit on 按钮与列权限. */
const STALE_MS = 5 * 60_000;

export const pageButtonsQuery = (page: string) =>
  queryOptions({
    queryKey: [permissionsApi.buttons.path, page],
    queryFn: async () => (await call(permissionsApi.buttons, { page }, { silent: true })).data,
    staleTime: STALE_MS,
  });
export const pageColumnsQuery = (page: string) =>
  queryOptions({
    queryKey: [permissionsApi.columns.path, page],
    queryFn: async () => (await call(permissionsApi.columns, { page }, { silent: true })).data,
    staleTime: STALE_MS,
  });

/**
 * A page's button and column rules fetched ahead of it (api/ahead.ts): the pages of the buttons of
 * `endpoints` and of the governed `columns`, under the keys useButton and useColumnModes ask.
 */
export function fetchPermissionsAhead(
  queryClient: QueryClient,
  endpoints: readonly EndpointDef[],
  columns?: ColumnSetDecl,
) {
  for (const page of new Set(endpoints.flatMap((e) => (e.button ? [e.button.page] : []))))
    ahead(queryClient, pageButtonsQuery(page));
  if (columns) ahead(queryClient, pageColumnsQuery(columns.page));
}

/**
 * May the user press the button of `endpoint` (its declared `button`)? `undefined` while the page's
 * answer is on its way — render nothing then, so a refused button never flashes. A call with no
 * button is always allowed (its access already let the user onto the page).
 */
export function useButton(endpoint: EndpointDef): boolean | undefined {
  const button = endpoint.button;
  const q = useQuery({ ...pageButtonsQuery(button?.page ?? ''), enabled: Boolean(button) });
  if (!button) return true;
  if (!q.data) return q.isError ? false : undefined;
  return q.data.buttons.some((b) => b.code === button.code && b.allowed);
}

/** The codes of the buttons of `page` the user may press (empty until the answer is in). */
export function usePageButtons(page: string): ReadonlySet<string> {
  const q = useQuery(pageButtonsQuery(page));
  return useMemo(() => new Set((q.data?.buttons ?? []).filter((b) => b.allowed).map((b) => b.code)), [q.data]);
}

/** The mode of each governed column of `set` for the user (all visible until the answer is in; none without a set). */
export function useColumnModes(set: ColumnSetDecl | undefined): Record<string, ColumnMode> {
  const q = useQuery({ ...pageColumnsQuery(set?.page ?? ''), enabled: Boolean(set) });
  return useMemo(
    () => Object.fromEntries((set ? (q.data?.columns ?? []) : []).map((c) => [c.field, c.mode])),
    [set, q.data],
  );
}

/** Table columns without the ones hidden from the user (matched by dataIndex). */
export function withoutHidden<C extends { dataIndex?: unknown; key?: unknown }>(
  columns: C[],
  modes: Record<string, ColumnMode>,
): C[] {
  return columns.filter((c) => {
    const field = typeof c.dataIndex === 'string' ? c.dataIndex : typeof c.key === 'string' ? c.key : undefined;
    return !field || modes[field] !== 'HIDDEN';
  });
}
