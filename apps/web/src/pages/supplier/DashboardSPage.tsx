/**
 * 企业标准档案 (/esm/supplier/dashboardS), the supplier's landing page: the effective files of the
 * materials it supplies and holds a valid grant for. `?standardCode=` (kept by the /esm redirect)
 * prefills the filter.
 */
import { Button } from 'antd';
import { HistoryOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router-dom';
import { BASE_PATH } from '@esm/contracts';
import { SupplierFileTable } from './SupplierFileTable.tsx';
import { NoGrantHint } from './NoGrantHint.tsx';

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
        <Link to={`${BASE_PATH}/supplier/dashboardSHistory`}>
          <Button icon={<HistoryOutlined />}>历史版本</Button>
        </Link>
      }
    />
  );
}
