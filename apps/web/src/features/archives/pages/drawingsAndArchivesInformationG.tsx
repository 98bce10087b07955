/**
 * 图纸档案信息 (/esm/supplier/drawingsAndArchivesInformationG): the supplier's tree (product line →
 * material, only what it may see) on the left, the selected node's files on the right, and for a
 * selected material how long its grant lasts.
 */
import { useMemo, useState } from 'react';
import { Alert, Card, Col, Row } from 'antd';
import { Link, useSearchParams } from 'react-router';
import dayjs from 'dayjs';
import { PAGES } from '@esm/contracts';
import { supplierTreeLoaders, useEmpower } from '../api.ts';
import { MaterialTree, type TreeSelection } from '../MaterialTree.tsx';
import { SupplierFileTable } from '../SupplierFileTable.tsx';
import { NoGrantHint } from '../NoGrantHint.tsx';

function GrantValidity({ materialCode }: { materialCode: string }) {
  const empower = useEmpower(materialCode);
  if (!empower.data) return null;
  const e = empower.data;
  return e.empowered ? (
    <Alert
      type="success"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="grant-validity"
      message={`物料 ${materialCode} 的图纸授权有效期至 ${e.validUntil ? dayjs(e.validUntil).format('YYYY-MM-DD HH:mm') : '—'}`}
      description={e.validFrom ? `自 ${dayjs(e.validFrom).format('YYYY-MM-DD HH:mm')} 起生效` : undefined}
    />
  ) : (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="grant-validity"
      message={e.reason ?? `物料 ${materialCode} 暂无有效的图纸授权`}
      action={<Link to={PAGES.supplierDrawingEmpowerApply.path}>申请图纸授权</Link>}
    />
  );
}

export default function DrawingsAndArchivesInformationGPage() {
  // ?materialCode= (a material link on 企业标准档案) opens the tree on that material
  const [params] = useSearchParams();
  const [selection, setSelection] = useState<TreeSelection>(() =>
    params.get('materialCode') ? { materialCode: params.get('materialCode')!.slice(0, 40) } : {},
  );
  const scope = useMemo(
    () => ({ productLineCode: selection.productLineCode, materialCode: selection.materialCode }),
    [selection],
  );
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={6} xxl={5}>
        <Card size="small" title="产品线 / 物料">
          <MaterialTree {...supplierTreeLoaders} selection={selection} onSelect={setSelection} height={520} />
        </Card>
      </Col>
      <Col xs={24} lg={18} xxl={19}>
        {selection.materialCode && <GrantValidity materialCode={selection.materialCode} />}
        <SupplierFileTable kind="current" scope={scope} emptyHint={<NoGrantHint />} />
      </Col>
    </Row>
  );
}
