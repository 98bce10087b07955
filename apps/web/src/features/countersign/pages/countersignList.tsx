/** /esm/drawingManagement/countersignList — 会签单列表 (internal): every list, created and issued here. */
import { CountersignList } from '../CountersignList.tsx';

export default function CountersignListPage() {
  return <CountersignList side="internal" />;
}
