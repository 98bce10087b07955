/**
 * Enforces the button and column permissions for every route registered with lib/route.ts:
 * a call that declares a `button` is refused (403 naming the action) to a user type
 * the button is not granted to, right after the access check and before its body is looked at;
 * a call that declares `columns` has its rows (the `data` list, or the `data` row of a detail)
 * passed through `applyColumnSet` (applyColumnModes, and the audit trail's echoes) before they are serialised, and a
 * refusal whose text names a governed column's fact (`AppError.named`) is said without the name or
 * masked (`namedMessage`). The Excel exports use the same
 * store (`app.permissions.columnModes`) and the same function.
 *
 * Registered right after the auth plugin, before any route: hooks apply to routes added after them.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { API_BASE, applyColumnSet, buttonRefusedText, namedMessage, type ColumnModes } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { forbidden, refusalSent } from '../../plugins/errors.ts';
import { PermissionStore } from './store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    permissions: PermissionStore;
  }
}

/** Whether no column of `modes` is hidden or masked (remembered per modes object: the store hands out the same one). */
const visibleAll = new WeakMap<ColumnModes, boolean>();
function allVisible(modes: ColumnModes): boolean {
  let all = visibleAll.get(modes);
  if (all === undefined) visibleAll.set(modes, (all = Object.values(modes).every((mode) => mode === 'VISIBLE')));
  return all;
}

export const permissionsPlugin = fp(async (app: FastifyInstance, { db }: { db: Db }) => {
  const store = new PermissionStore(db);
  app.decorate('permissions', store);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_BASE)) return;
    const { button, columns, access } = route.config ?? {};
    if (button && access) store.declareButton(button, access);
    if (columns) store.declareColumns(columns);
  });

  app.addHook('preValidation', async (request) => {
    const button = request.routeOptions.config?.button;
    if (!button || !request.user) return;
    if (!(await store.buttonAllowed(button, request.user.type))) {
      request.log.info({ userId: request.user.id, type: request.user.type, button }, 'button refused');
      throw forbidden(buttonRefusedText(button.label));
    }
  });

  app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
    const { columns, button } = request.routeOptions.config ?? {};
    if (!request.user || !payload || typeof payload !== 'object' || !('data' in payload)) return payload;
    // a refusal of a page's call whose text names a governed column of that page (who holds a
    // question, who decided an application) says it as the caller may read that column
    const envelope = payload as { success?: unknown; message?: unknown };
    const named = envelope.success === false ? refusalSent(request)?.named : undefined;
    if (named && typeof envelope.message === 'string' && named.page === (columns?.page ?? button?.page)) {
      const modes = await store.columnModes(
        { page: named.page, columns: { [named.column]: named.column } },
        request.user.type,
      );
      return { ...payload, message: namedMessage(envelope.message, named, modes) };
    }
    if (!columns) return payload;
    const data = (payload as { data: unknown }).data;
    if (!data || typeof data !== 'object') return payload;
    const modes = await store.columnModes(columns, request.user.type);
    // every column visible to this type: applyColumnSet would hand back each row as it is (no
    // column is dropped or masked, no place or echo follows one); the rows are not copied for that
    if (allVisible(modes)) return payload;
    const apply = (row: unknown) =>
      row && typeof row === 'object' ? applyColumnSet(row as Record<string, unknown>, columns, modes) : row;
    return { ...payload, data: Array.isArray(data) ? data.map(apply) : apply(data) };
  });
});
