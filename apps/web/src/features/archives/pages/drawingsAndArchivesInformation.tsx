/** /esm/drawingManagement/drawingsAndArchivesInformation — 图纸档案信息, the tree page (the layout adds 返回上一级). */
import { ArchiveBrowser } from '../ArchiveBrowser.tsx';

export default function DrawingsAndArchivesInformationPage() {
  return <ArchiveBrowser />;
}
