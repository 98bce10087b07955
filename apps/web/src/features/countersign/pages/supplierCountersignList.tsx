/**
 * /esm/supplier/countersignList — 会签单列表 (supplier): the lists issued to the caller's company;
 * its files open behind the confidentiality agreement like every drawing a supplier opens.
 */
import { useKeepsecretGate } from '../../standardlog/index.ts';
import { CountersignList } from '../CountersignList.tsx';

export default function SupplierCountersignListPage() {
  const { run, gate } = useKeepsecretGate();
  return <CountersignList side="supplier" run={run} gate={gate} />;
}
