/** The columns of a grant list (in force, history): who, what, its state, its term, where it came from. */
import type { ReactNode } from 'react';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { GrantRow } from '@esm/contracts';
import { CodeName, ExpiringTag, GrantRowTag, minute } from './labels.tsx';

export function grantColumns(opts: {
  withRevocation?: boolean;
  actions?: (g: GrantRow) => ReactNode;
}): ColumnsType<GrantRow> {
  return [
    {
      title: '供应商',
      dataIndex: 'supplierCode',
      sorter: true,
      width: 160,
      render: (code: string, g) => <CodeName code={code} name={g.supplierName} width={150} />,
    },
    {
      title: '物料',
      dataIndex: 'materialCode',
      sorter: true,
      width: 150,
      render: (code: string, g) => <CodeName code={code} name={g.materialName} width={140} />,
    },
    {
      title: '状态',
      dataIndex: 'state',
      width: 110,
      render: (s: GrantRow['state'], g) => (
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
          <GrantRowTag state={s} />
          {g.expiringSoon && <ExpiringTag />}
          {g.renewed && <Tag color="blue">已续期</Tag>}
          {!g.suppliesNow && <Tag color="red">未供货</Tag>}
        </div>
      ),
    },
    { title: '生效时间', dataIndex: 'validFrom', sorter: true, width: 140, render: minute },
    { title: '到期时间', dataIndex: 'validUntil', sorter: true, width: 140, render: minute },
    ...(opts.withRevocation
      ? ([
          {
            title: '撤销',
            dataIndex: 'revokedAt',
            sorter: true,
            width: 190,
            render: (at: string | null, g) =>
              at ? (
                <div style={{ lineHeight: 1.4 }}>
                  <div>
                    {minute(at)} {g.revokedByName}
                  </div>
                  <Typography.Text
                    type="secondary"
                    ellipsis={{ tooltip: g.revokeReason }}
                    style={{ fontSize: 12, maxWidth: 180 }}
                  >
                    {g.revokeReason}
                  </Typography.Text>
                </div>
              ) : (
                '—'
              ),
          },
        ] as ColumnsType<GrantRow>)
      : []),
    {
      title: '来源 / 审批',
      dataIndex: 'approvedAt',
      sorter: true,
      width: 160,
      render: (at: string | null, g) =>
        g.imported ? (
          <Tag>历史导入</Tag>
        ) : (
          <div style={{ lineHeight: 1.4 }}>
            <div>
              申请 {g.applicationId} · {g.approverName}
            </div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {minute(at)}
            </Typography.Text>
          </div>
        ),
    },
    ...(opts.withRevocation
      ? []
      : ([{ title: '图纸', dataIndex: 'drawingCount', width: 60, align: 'right' }] as ColumnsType<GrantRow>)),
    ...(opts.actions
      ? ([
          { title: '操作', key: 'actions', width: 110, render: (_: unknown, g: GrantRow) => opts.actions!(g) },
        ] as ColumnsType<GrantRow>)
      : []),
  ];
}
