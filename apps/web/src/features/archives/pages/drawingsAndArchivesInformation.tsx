/** /esm/drawingManagement/drawingsAndArchivesInformation — 图纸档案信息, the tree page (the layout adds 返回上一级). */
import { ArchiveBrowser, fetchArchiveBrowserAhead } from '../ArchiveBrowser.tsx';

/** Its first answers, asked at the sign-in when it is the landing page (api/ahead.ts). */
export const fetchAhead = fetchArchiveBrowserAhead;

export default function DrawingsAndArchivesInformationPage() {
  return <ArchiveBrowser />;
}
