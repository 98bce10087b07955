/**
 * 联系人: a supplier's contacts (internal users: any supplier's; a supplier: its own, with the
 * purchasers of the materials it supplies), numbers masked, each with the eye icon that reveals
 * it through the logged call. Opened by ContactsButton wherever suppliers are shown.
 */
import { useState } from 'react';
import { Button, Tag, Typography } from 'antd';
import { Drawer } from '../../components/Drawer.ts';
import { ContactsOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table';
import { CONTACT_KIND_LABELS, isSupplierType, phoneLogApi, type ContactRow } from '@esm/contracts';
import { PagedTable } from '../../components/PagedTable.tsx';
import { useSession } from '../session/index.ts';
import { MaskedMobile } from './MaskedMobile.tsx';
import { ClearOfToasts } from '../../components/ClearOfToasts.tsx';

const columns: ColumnsType<ContactRow> = [
  { title: '姓名', dataIndex: 'name', width: 90, sorter: true },
  { title: '职务', dataIndex: 'title', width: 110, ellipsis: true, render: (v: string | null) => v ?? '—' },
  {
    title: '类型',
    dataIndex: 'kind',
    width: 120,
    render: (k: ContactRow['kind']) => (
      <Tag color={k === 'PURCHASER' ? 'blue' : 'orange'}>{CONTACT_KIND_LABELS[k]}</Tag>
    ),
  },
  {
    title: '手机号',
    dataIndex: 'mobile',
    width: 180,
    render: (m: string, r) => <MaskedMobile contactId={r.id} masked={m} name={r.name} />,
  },
  { title: '邮箱', dataIndex: 'email', ellipsis: true, render: (v: string | null) => v ?? '—' },
];

export function ContactsDrawer({
  open,
  onClose,
  supplierCode,
  supplierName,
}: {
  open: boolean;
  onClose: () => void;
  supplierCode?: string;
  supplierName?: string;
}) {
  const session = useSession();
  const supplierSide = session.data?.state === 'ok' && isSupplierType(session.data.user.type);
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={Math.min(760, window.innerWidth - 24)}
      title={<ClearOfToasts>{supplierName ? `联系人 · ${supplierName}` : '联系人'}</ClearOfToasts>}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        手机号已脱敏；点击眼睛图标查看完整号码，每次查看都会记录在手机号查看日志中。
      </Typography.Paragraph>
      {supplierSide ? (
        <PagedTable
          endpoint={phoneLogApi.supplierContacts}
          columns={columns}
          filters={{}}
          rowKey="id"
          size="small"
          emptyText="暂无联系人"
        />
      ) : (
        <PagedTable
          endpoint={phoneLogApi.contacts}
          columns={columns}
          filters={{ supplierCode }}
          rowKey="id"
          size="small"
          emptyText="该供应商暂无联系人"
        />
      )}
    </Drawer>
  );
}

/** A 联系人 button that opens the drawer for one supplier (internal) or the caller's own (supplier). */
export function ContactsButton({
  supplierCode,
  supplierName,
  link,
}: {
  supplierCode?: string;
  supplierName?: string;
  link?: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        type={link ? 'link' : 'default'}
        size={link ? 'small' : 'middle'}
        icon={link ? undefined : <ContactsOutlined />}
        onClick={() => setOpen(true)}
      >
        联系人
      </Button>
      {open && (
        <ContactsDrawer
          open={open}
          onClose={() => setOpen(false)}
          supplierCode={supplierCode}
          supplierName={supplierName}
        />
      )}
    </>
  );
}
