import { Grid, Layout, QRCode, Space, Typography } from 'antd';
import { EXTERNAL_LINKS, FOOTER, UI } from '@esm/contracts/basics';

/** Footer of spec §2: agreements, friendly links, help center, phone, QR code, filing notices. */
export function AppFooter() {
  const agreements = [EXTERNAL_LINKS.userAgreement, EXTERNAL_LINKS.privacyPolicy, EXTERNAL_LINKS.serviceAgreement, EXTERNAL_LINKS.interactionNotes, EXTERNAL_LINKS.commitmentLetter, EXTERNAL_LINKS.conductCode];
  // a separator would hang at a line's end once the filing notices wrap on a narrow screen
  const wide = Grid.useBreakpoint().md !== false;
  return (
    <Layout.Footer className="esm-footer" style={{ padding: '16px 24px', fontSize: 12 }} data-testid="footer">
      <div className="esm-inner" style={{ display: 'flex', gap: 24, flexWrap: 'wrap', justifyContent: 'space-between' }}>
        <div style={{ flex: '1 1 480px' }}>
          <div>
            <Typography.Text type="secondary">平台协议：</Typography.Text>
            {agreements.map((l) => (
              <a key={l.href} href={l.href} target="_blank" rel="noreferrer">{l.text}</a>
            ))}
          </div>
          <div style={{ marginTop: 6 }}>
            <Typography.Text type="secondary">友情链接：</Typography.Text>
            {FOOTER.friendlyLinks.map((l) => (
              <a key={l.href} href={l.href} target="_blank" rel="noreferrer">{l.text}</a>
            ))}
            <a href={EXTERNAL_LINKS.help.href} target="_blank" rel="noreferrer">{EXTERNAL_LINKS.help.text}</a>
          </div>
          <div style={{ marginTop: 6 }}>
            <Typography.Text type="secondary">联系电话：{UI.contactPhone}</Typography.Text>
          </div>
          <div style={{ marginTop: 6 }}>
            <Space separator={wide ? '|' : undefined} size={wide ? 8 : [12, 4]} wrap>
              <Typography.Text type="secondary">{UI.copyright} {FOOTER.company} 版权所有</Typography.Text>
              <a href={FOOTER.icp.href} target="_blank" rel="noreferrer">{FOOTER.icp.text}</a>
              <a href={FOOTER.police.href} target="_blank" rel="noreferrer">{FOOTER.police.text}</a>
            </Space>
          </div>
        </div>
        <div style={{ textAlign: 'center' }}>
          <QRCode value={FOOTER.qrCodeUrl} size={84} bordered={false} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>关注公众号</Typography.Text>
        </div>
      </div>
    </Layout.Footer>
  );
}
