/**
 * 企业标准档案 (/esm/supplier/dashboardS), the supplier's landing page: the effective files of the
 * materials it supplies and holds a valid grant for. `?standardCode=` (kept by the /esm redirect)
 * prefills the filter.
 */
import { Button } from 'antd';
import { ApartmentOutlined, HistoryOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { PAGES } from '@esm/contracts';
import { SupplierFileTable, fetchSupplierFilesAhead } from '../SupplierFileTable.tsx';
import type { FetchAhead } from '../../pages.ts';
import { NoGrantHint } from '../NoGrantHint.tsx';
import { ContactsButton } from '../../phoneLog/index.ts';

/** `?standardCode=` as the filter takes it. */
const presetStandardCode = (params: URLSearchParams) => params.get('standardCode')?.trim().slice(0, 64) || undefined;

/** Its first answers, asked at the sign-in when it is the landing page (api/ahead.ts). */
export const fetchAhead: FetchAhead = (queryClient, target) =>
  fetchSupplierFilesAhead(queryClient, 'current', { standardCode: presetStandardCode(target.searchParams) });

export default function DashboardSPage() {
  const [params] = useSearchParams();
  const standardCode = presetStandardCode(params);
  return (
    <SupplierFileTable
      key={standardCode ?? ''}
      kind="current"
      initialFilters={{ standardCode }}
      emptyHint={<NoGrantHint />}
      extra={
        <>
          <Link to={PAGES.dashboardSHistory.path}>
            <Button icon={<HistoryOutlined />}>历史版本</Button>
          </Link>
          {/* the tree page is hidden from the menu (the legacy portal reaches it from here, with 返回上一级) */}
          <Link to={PAGES.drawingsAndArchivesInformationG.path}>
            <Button icon={<ApartmentOutlined />}>按物料浏览</Button>
          </Link>
          {/* the company's contacts and its materials' purchasers, numbers masked */}
          <ContactsButton />
        </>
      }
    />
  );
}
