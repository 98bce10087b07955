/**
 * A mobile number as the server sent it (138****5678) with an eye icon: pressing it asks
 * saveLookMobilePhoneLog for the full number (the server logs the look) and shows it in place.
 * Pressing again hides it; showing it again asks — and logs — again.
 */
import { useState } from 'react';
import { Button, Space, Tooltip, Typography } from 'antd';
import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { isSupplierType, type ContactKind } from '@esm/contracts';
import { useSession } from '../session/index.ts';
import { revealMobile } from './api.ts';

/** `kind` BOM_VENDOR: `contactId` is a BOM line's id, the number its sub-tier vendor's contact's. */
export function MaskedMobile({
  contactId,
  masked,
  name,
  kind,
}: {
  contactId: number;
  masked: string;
  name?: string;
  kind?: ContactKind;
}) {
  const session = useSession();
  const supplierSide = session.data?.state === 'ok' && isSupplierType(session.data.user.type);
  const [full, setFull] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    if (full) return setFull(null);
    setBusy(true);
    try {
      setFull(await revealMobile(contactId, Boolean(supplierSide), kind));
    } catch {
      // the API client has shown the refusal
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space size={4} wrap={false}>
      <Typography.Text
        copyable={full ? { text: full, tooltips: ['复制', '已复制'] } : false}
        data-testid="mobile"
        style={{ fontVariantNumeric: 'tabular-nums' }}
      >
        {full ?? masked}
      </Typography.Text>
      <Tooltip title={full ? '隐藏' : '查看完整手机号（将记录查看日志）'}>
        <Button
          type="text"
          size="small"
          loading={busy}
          icon={full ? <EyeInvisibleOutlined /> : <EyeOutlined />}
          aria-label={full ? `隐藏${name ?? ''}的手机号` : `查看${name ?? ''}的完整手机号`}
          onClick={toggle}
        />
      </Tooltip>
    </Space>
  );
}
