import { visitsApi } from '@esm/contracts';
import { call } from '../../api/client.ts';

/** The user_visit event; failures are not the user's business, so it is silent. */
export function sendVisit(menuName: string, path: string) {
  call(visitsApi.visit, { menuName, path }, { silent: true }).catch(() => {});
}
