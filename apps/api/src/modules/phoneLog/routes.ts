/** Mobile numbers, manufacturer side: contacts (masked), the logged reveal, the view log and its export. */
import type { FastifyInstance } from 'fastify';
import { CONTACT_KIND_LABELS, USER_TYPE_LABELS, phoneLogApi, type PhoneLogRow, type UserType } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { cstDateTime } from '../../lib/dates.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { tooManyToExport } from '../../lib/export-limits.ts';
import { sendWorkbook } from '../../lib/workbook.ts';
import { governExportColumns, type GovernedExportColumn } from '../../lib/permission-rules.ts';
import { clientOf } from '../../lib/access-log.ts';
import { pageContacts, pagePhoneLog, phoneLogRows, reveal } from './service.ts';

/** `field`: a governed column (PHONE_LOG_COLUMNS), hidden or masked as in the list. */
const EXPORT_COLUMNS: GovernedExportColumn<PhoneLogRow>[] = [
  { header: '查看时间', width: 20, value: (r) => cstDateTime(new Date(r.createdAt)) },
  { header: '查看人账号', width: 14, value: (r) => r.viewerAccount },
  { header: '查看人', width: 20, value: (r) => r.viewerName },
  {
    header: '用户类型',
    width: 18,
    value: (r) => `${r.viewerType} · ${USER_TYPE_LABELS[r.viewerType as UserType] ?? ''}`,
  },
  { header: '查看人所属供应商', width: 28, value: (r) => r.viewerSupplierName ?? '' },
  { header: '被查看人', width: 12, value: (r) => r.contactName },
  { header: '类型', width: 14, value: (r) => CONTACT_KIND_LABELS[r.contactKind] },
  { header: '被查看人所属供应商', width: 28, value: (r) => r.contactSupplierName ?? '' },
  { header: '手机号（脱敏）', width: 16, value: (r) => r.maskedMobile },
  { header: '页面', width: 36, value: (r) => r.page },
  { header: 'IP', width: 16, field: 'ip', value: (r) => r.ip ?? '' },
];

export async function phoneLogRoutes(app: FastifyInstance, { db, exportMaxRows }: { db: Db; exportMaxRows: number }) {
  route(app, phoneLogApi.contacts, async ({ body }) => cappedPage(await pageContacts(db, body)));
  route(app, phoneLogApi.reveal, async ({ body, user, request }) =>
    ok(await reveal(db, user, body, body.page, clientOf(request)), '已记录查看'),
  );
  route(app, phoneLogApi.page, async ({ body }) => cappedPage(await pagePhoneLog(db, body)));
  route(app, phoneLogApi.exportExcel, async ({ body, user, request, reply }) => {
    const rows = await phoneLogRows(db, body, exportMaxRows);
    if (!rows) throw tooManyToExport(exportMaxRows);
    const columns = governExportColumns(
      EXPORT_COLUMNS,
      await app.permissions.columnModes(phoneLogApi.exportExcel.columns, user.type),
    );
    return sendWorkbook(request, reply, '手机号查看日志', rows.length, [
      {
        name: '手机号查看日志',
        columns: columns.map(({ header, width }) => ({ header, width })),
        rows: [rows.map((r) => columns.map((c) => c.value(r)))],
      },
    ]);
  });

  // supplier side: scoped to the caller's supplier by the auth hook
  route(app, phoneLogApi.supplierContacts, async ({ body, supplier }) =>
    cappedPage(await pageContacts(db, body, supplier.code)),
  );
  route(app, phoneLogApi.supplierReveal, async ({ body, user, supplier, request }) =>
    ok(await reveal(db, user, body, body.page, clientOf(request), supplier.code), '已记录查看'),
  );
}
