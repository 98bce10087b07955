/**
 * 二三级供应商 (/esm/supplier/twoOrThreeLevelsSupplier): the supplier's sub-tier vendors, from
 * its own BOM (searchBomVenderList), with what each supplies; exported with the same filters.
 */
import { ExcelButton } from '../../../components/ExcelButton.tsx';
import { exportVendors } from '../api.ts';
import { VendorTable } from '../VendorTable.tsx';

export default function TwoOrThreeLevelsSupplierPage() {
  return <VendorTable extra={(filters) => <ExcelButton run={() => exportVendors(filters)} />} />;
}
