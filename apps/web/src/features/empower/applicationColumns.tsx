/**
 * The columns an application list shares between the supplier's page and the approver's: its
 * materials (one line each, with what the side needs to see after the code) and its requested
 * period (the approver also sees a shorter approved period).
 */
import type { ReactNode } from 'react';
import { Typography } from 'antd';
import type { ColumnType } from 'antd/es/table';
import type { ApplicationRow } from '@esm/contracts';

type Material = ApplicationRow['materials'][number];

/** 物料: one line a material, `code` then `after(m)`, ellipsed to the column. */
export function materialsColumn(
  title: string,
  width: number,
  after: (m: Material) => ReactNode,
): ColumnType<ApplicationRow> {
  return {
    title,
    dataIndex: 'materials',
    width,
    render: (ms: ApplicationRow['materials']) => (
      <div style={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {ms.map((m) => (
          // the tags after the code wrap under it rather than being cut (未批准 and the grant's state are what the row says)
          <div
            key={m.code}
            title={`${m.code} ${m.name}`}
            style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 4 }}
          >
            <span style={{ whiteSpace: 'nowrap' }}>{m.code}</span>
            {after(m)}
          </div>
        ))}
      </div>
    ),
  };
}

/** 申请期限: from … to …; with `showApproved`, 批准至 when the approval shortened it. */
export function periodColumn(showApproved: boolean): ColumnType<ApplicationRow> {
  return {
    title: '申请期限',
    dataIndex: 'validFrom',
    sorter: true,
    width: 130,
    render: (from: string, a) => (
      <div style={{ lineHeight: 1.4, whiteSpace: 'nowrap' }}>
        {from}
        <div>至 {a.validUntil}</div>
        {showApproved && a.approvedUntil && (a.approvedFrom !== a.validFrom || a.approvedUntil !== a.validUntil) && (
          <Typography.Text type="warning" style={{ fontSize: 12 }}>
            批准至 {a.approvedUntil}
          </Typography.Text>
        )}
      </div>
    ),
  };
}
