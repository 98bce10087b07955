/**
 * The company site (the api's COMPANY_SITE_URL, told by every answer of the session check) that
 * the legacy portal's relative links belong to: the header logo, 帮助 and the footer's agreements. On a
 * standalone deployment there is none: those paths would open this server's own 404, so the
 * links are left out. A store outside React: the login page's first load has no react-query.
 */
import { useSyncExternalStore } from 'react';

let site: string | undefined;
const listeners = new Set<() => void>();

export function setCompanySite(url: string | undefined) {
  if (url === site) return;
  site = url;
  for (const l of listeners) l();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The company site's address, or undefined when none is configured (or not known yet). */
export const useCompanySite = () => useSyncExternalStore(subscribe, () => site);

/** A spec path (`/help`, `/registe?types=1`) on the company site. */
export const onCompanySite = (url: string, path: string) => `${url.replace(/\/+$/, '')}${path}`;
