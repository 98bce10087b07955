/** What a supplier with nothing to see should do: apply for a grant on the material's drawings. */
import { Empty } from 'antd';
import { Link } from 'react-router';
import { PAGES } from '@esm/contracts';

export function NoGrantHint() {
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <span data-testid="no-grant-hint">
          暂无可查看的图纸：如需查看某物料的图纸，请先
          <Link to={PAGES.supplierDrawingEmpowerApply.path}>申请图纸授权</Link>
        </span>
      }
    />
  );
}
