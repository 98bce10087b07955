/**
 * Footer of the legacy portal: agreements, friendly links, help center, phone, QR code, filing notices.
 * Plain elements, no antd: it is on the login page, whose first load carries no antd.
 * Its look (antd's Layout.Footer and secondary text, in the theme's colours when inside the
 * portal's antd layout, light ones on the login page) is in global.css (.esm-footer); the QR code
 * is a file drawn once (public/footer-qr.svg, held to FOOTER.qrCodeUrl by footerQr.test.ts).
 */
import { EXTERNAL_LINKS, FOOTER, UI } from '@esm/contracts/basics';
import { onCompanySite, useCompanySite } from './companySite.ts';

export function AppFooter() {
  const agreements = [
    EXTERNAL_LINKS.userAgreement,
    EXTERNAL_LINKS.privacyPolicy,
    EXTERNAL_LINKS.serviceAgreement,
    EXTERNAL_LINKS.interactionNotes,
    EXTERNAL_LINKS.commitmentLetter,
    EXTERNAL_LINKS.conductCode,
  ];
  // the agreements and the help center are pages of the company site: without one, no dead links
  const site = useCompanySite();
  return (
    <footer className="esm-footer" data-testid="footer">
      <div className="esm-inner esm-footer-row">
        <div className="esm-footer-text">
          {site && (
            <div>
              <span className="esm-secondary">平台协议：</span>
              {agreements.map((l) => (
                <a key={l.href} href={onCompanySite(site, l.href)} target="_blank" rel="noreferrer">
                  {l.text}
                </a>
              ))}
            </div>
          )}
          <div>
            <span className="esm-secondary">友情链接：</span>
            {FOOTER.friendlyLinks.map((l) => (
              <a key={l.href} href={l.href} target="_blank" rel="noreferrer">
                {l.text}
              </a>
            ))}
            {site && (
              <a href={onCompanySite(site, EXTERNAL_LINKS.help.href)} target="_blank" rel="noreferrer">
                {EXTERNAL_LINKS.help.text}
              </a>
            )}
          </div>
          <div>
            <span className="esm-secondary">联系电话：{UI.contactPhone}</span>
          </div>
          {/* separated by "|" on a wide screen only (CSS): one would hang at a wrapped line's end */}
          <div className="esm-footer-notices">
            <span className="esm-secondary">
              {UI.copyright} {FOOTER.company} 版权所有
            </span>
            <a href={FOOTER.icp.href} target="_blank" rel="noreferrer">
              {FOOTER.icp.text}
            </a>
            <a href={FOOTER.police.href} target="_blank" rel="noreferrer">
              {FOOTER.police.text}
            </a>
          </div>
        </div>
        <div className="esm-footer-qr">
          <img
            src={`${import.meta.env.BASE_URL}footer-qr.svg`}
            width={84}
            height={84}
            alt={`公众号二维码：${FOOTER.qrCodeUrl}`}
          />
          <span className="esm-secondary">关注公众号</span>
        </div>
      </div>
    </footer>
  );
}
