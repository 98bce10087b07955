/** /esm/dashboard — 档案信息, the internal users' landing page: the archive by product line and material. */
import { ArchiveBrowser } from '../ArchiveBrowser.tsx';

export default function DashboardPage() {
  return <ArchiveBrowser />;
}
