/**
 * The footer's QR code is a file drawn once (public/footer-qr.svg), not drawn in the browser:
 * antd's QRCode and its generator stayed on the login page's first load. This test
 * draws it again with the generator antd uses (@rc-component/qrcode, the same settings as the
 * footer's former `<QRCode size={84} bordered={false} />`) and holds the file to it, so a new
 * FOOTER.qrCodeUrl cannot leave a stale code behind. `UPDATE_QR=1` rewrites the file.
 */
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { FOOTER } from '@esm/contracts/basics';

const file = fileURLToPath(new URL('../../../public/footer-qr.svg', import.meta.url));

/** React, react-dom/server and the generator as antd itself resolves them (one React copy). */
function drawQr(value: string): string {
  const fromAntd = createRequire(createRequire(import.meta.url).resolve('antd'));
  const { createElement } = fromAntd('react') as typeof import('react');
  const { renderToStaticMarkup } = fromAntd('react-dom/server') as typeof import('react-dom/server');
  const { QRCodeSVG } = fromAntd('@rc-component/qrcode') as {
    QRCodeSVG: import('react').ComponentType<Record<string, unknown>>;
  };
  // antd's defaults: error level M, transparent background, the theme's text colour
  const svg = renderToStaticMarkup(
    createElement(QRCodeSVG, { value, size: 84, level: 'M', bgColor: 'transparent', fgColor: 'rgba(0,0,0,0.88)' }),
  );
  return `${svg.replace('<svg ', '<svg xmlns="http://www.w3.org/2000/svg" ')}\n`;
}

test('public/footer-qr.svg is the QR code of FOOTER.qrCodeUrl', () => {
  const drawn = drawQr(FOOTER.qrCodeUrl);
  if (process.env.UPDATE_QR === '1') writeFileSync(file, drawn);
  expect(readFileSync(file, 'utf8')).toBe(drawn);
});
