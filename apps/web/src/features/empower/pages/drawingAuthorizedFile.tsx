/**
 * 已授权图纸 (/esm/drawingAuthorization/drawingAuthorizedFile): grants in force now or starting
 * later, ending soonest first, with where each came from (the application and its approver, or
 * imported) — and 撤销, which closes a grant at once, with a reason.
 */
import { useState } from 'react';
import { Button, Space } from 'antd';
import { Link } from 'react-router';
import { GRANT_SOURCES, GRANT_SOURCE_LABELS, empowerApi, type GrantRow } from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import type { FilterField } from '../../../components/FilterForm.tsx';
import { supplierSource } from '../../../components/supplierSource.ts';
import { useRefreshEmpower } from '../api.ts';
import { grantColumns } from '../grantColumns.tsx';
import { reportLink } from '../links.ts';
import { useButton } from '../../../lib/permissions.ts';
import { RevokeDialog } from '../RevokeDialog.tsx';

const FIELDS: FilterField[] = [
  { kind: 'remote', name: 'supplierCode', label: '供应商', source: supplierSource, width: 180 },
  { kind: 'text', name: 'materialCode', label: '物料编码', width: 130 },
  {
    kind: 'select',
    name: 'state',
    label: '状态',
    width: 110,
    options: [
      { value: 'VALID', label: '有效' },
      { value: 'NOT_YET', label: '未生效' },
    ],
  },
  {
    kind: 'select',
    name: 'expiringOnly',
    label: '即将到期',
    width: 110,
    options: [{ value: 'true', label: '即将到期' }],
  },
  {
    kind: 'select',
    name: 'source',
    label: '来源',
    width: 110,
    options: GRANT_SOURCES.map((s) => ({ value: s, label: GRANT_SOURCE_LABELS[s] })),
  },
];

export default function DrawingAuthorizedFilePage() {
  const refresh = useRefreshEmpower();
  const [revoking, setRevoking] = useState<GrantRow | null>(null);
  const mayRevoke = useButton(empowerApi.revoke);
  const columns = grantColumns({
    actions: (g) => (
      <Space size={0} wrap>
        {mayRevoke && (
          <Button type="link" size="small" danger onClick={() => setRevoking(g)}>
            撤销
          </Button>
        )}
        <Link to={reportLink({ materialCode: g.materialCode })}>
          <Button type="link" size="small">
            访问报告
          </Button>
        </Link>
      </Space>
    ),
  });
  return (
    <>
      <ListPage
        endpoint={empowerApi.grants}
        columns={columns}
        fields={FIELDS}
        rowKey="id"
        filterTestId="grant-filters"
        emptyText="没有生效中的授权"
      />
      <RevokeDialog grant={revoking} onClose={() => setRevoking(null)} onDone={refresh} />
    </>
  );
}
