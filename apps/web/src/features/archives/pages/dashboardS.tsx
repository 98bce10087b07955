/**
 * 企业标准档案 (/esm/supplier/dashboardS), the supplier's landing page: the effective files of the
 * materials it supplies and holds a valid grant for. `?standardCode=` (kept by the /esm redirect)
 * prefills the filter.
 */
import { Button } from 'antd';
import { ApartmentOutlined, HistoryOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { BASE_PATH } from '@esm/contracts';
import { SupplierFileTable } from '../SupplierFileTable.tsx';
import { NoGrantHint } from '../NoGrantHint.tsx';
import { ContactsButton } from '../../phoneLog/index.ts';

export default function DashboardSPage() {
  const [params] = useSearchParams();
  const standardCode = params.get('standardCode')?.trim().slice(0, 64) || undefined;
  return (
    <SupplierFileTable
      key={standardCode ?? ''}
      kind="current"
      initialFilters={{ standardCode }}
      emptyHint={<NoGrantHint />}
      extra={
        <>
          <Link to={`${BASE_PATH}/supplier/dashboardSHistory`}>
            <Button icon={<HistoryOutlined />}>历史版本</Button>
          </Link>
          {/* the tree page is hidden from the menu (spec §2 reaches it from here, with 返回上一级) */}
          <Link to={`${BASE_PATH}/supplier/drawingsAndArchivesInformationG`}>
            <Button icon={<ApartmentOutlined />}>按物料浏览</Button>
          </Link>
          {/* the company's contacts and its materials' purchasers, numbers masked (issue 14) */}
          <ContactsButton />
        </>
      }
    />
  );
}
