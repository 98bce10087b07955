/**
 * Mobile numbers: the contacts lists (numbers masked by the server) and the reveal,
 * saveLookMobilePhoneLog on the caller's side — the only call that answers a full number, and
 * it logs the look in the same transaction.
 */
import { phoneLogApi, type ContactKind, type EndpointBody } from '@esm/contracts';
import { call, callBlob, saveBlob } from '../../api/client.ts';

/** The full number of a contact (logged on the server); the side is the caller's. */
export async function revealMobile(contactId: number, supplierSide: boolean, kind?: ContactKind): Promise<string> {
  const page = window.location.pathname;
  const res = await call(supplierSide ? phoneLogApi.supplierReveal : phoneLogApi.reveal, {
    contactId,
    page,
    ...(kind ? { kind } : {}),
  });
  return res.data.mobile;
}

/** The view log as .xlsx with the page's filters, saved by the browser. */
export async function exportPhoneLog(body: NonNullable<EndpointBody<typeof phoneLogApi.exportExcel>>): Promise<string> {
  const result = await callBlob(phoneLogApi.exportExcel, body, { silent: true });
  saveBlob(result);
  return result.fileName;
}
