/**
 * 企业标准档案历史 (/esm/supplier/dashboardSHistory): earlier versions of the files of the
 * materials the supplier may see, viewable and downloadable like the current ones.
 */
import { Button } from 'antd';
import { FileTextOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { PAGES } from '@esm/contracts';
import { SupplierFileTable } from '../SupplierFileTable.tsx';
import { NoGrantHint } from '../NoGrantHint.tsx';

export default function DashboardSHistoryPage() {
  return (
    <SupplierFileTable
      kind="history"
      emptyHint={<NoGrantHint />}
      extra={
        <Link to={PAGES.dashboardS.path}>
          <Button icon={<FileTextOutlined />}>当前版本</Button>
        </Link>
      }
    />
  );
}
