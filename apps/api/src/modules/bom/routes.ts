/**
 * The manufacturer's side of the BOM (drawing admins, read only): the suppliers' BOM overview,
 * one supplier's tree and vendors, and the where-used search across suppliers.
 */
import type { FastifyInstance } from 'fastify';
import { bomApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { bomLevelList, bomSuppliers, bomVendors, requireSupplier, whereUsed } from './service.ts';

export async function bomRoutes(app: FastifyInstance, { db }: { db: Db }) {
  route(app, bomApi.suppliers, async ({ body }) => cappedPage(await bomSuppliers(db, body)));
  route(app, bomApi.haierTree, async ({ body: { supplierCode, ...q } }) => {
    await requireSupplier(db, supplierCode);
    return cappedPage(await bomLevelList(db, supplierCode, q));
  });
  route(app, bomApi.haierVendors, async ({ body: { supplierCode, ...q } }) => {
    await requireSupplier(db, supplierCode);
    return cappedPage(await bomVendors(db, supplierCode, q));
  });
  route(app, bomApi.whereUsed, async ({ body }) => cappedPage(await whereUsed(db, body)));
}
