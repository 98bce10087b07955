/** /esm/dashboard — 档案信息, the internal users' landing page: the archive by product line and material. */
import { ArchiveBrowser, fetchArchiveBrowserAhead } from '../ArchiveBrowser.tsx';

/** Its first answers, asked at the sign-in when it is the landing page (api/ahead.ts). */
export const fetchAhead = fetchArchiveBrowserAhead;

export default function DashboardPage() {
  return <ArchiveBrowser />;
}
