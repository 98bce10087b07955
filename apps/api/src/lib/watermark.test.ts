/**
 * The watermark's words and the names stamped copies travel under (pure parts of
 * lib/watermark.ts; the stamping itself is exercised through the api in test/files.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { contentDisposition, plainFileName, stampTime, stampedFileName, watermarkText } from './watermark.ts';

const at = new Date('2026-11-21T18:05:00Z'); // 2026-11-22 02:05 in Shanghai

describe('watermark text', () => {
  it('names supplier, account, Shanghai time and IP', () => {
    expect(stampTime(at)).toBe('2026-11-22 02:05');
    expect(watermarkText({ supplierName: '青岛海达精密机械有限公司', account: 'demo2', at, ip: '127.0.0.1' })).toBe(
      '青岛海达精密机械有限公司 demo2 2026-11-22 02:05 127.0.0.1 仅限本人查看 严禁外传',
    );
  });

  it('says 内部 for staff', () => {
    expect(watermarkText({ supplierName: null, account: 'demo3', at, ip: '10.0.0.8' })).toBe(
      '内部 demo3 2026-11-22 02:05 10.0.0.8 仅限本人查看 严禁外传',
    );
  });
});

describe('file names', () => {
  const stamp = { supplierName: '宁波东方电子科技有限公司', account: 'demo4', at, ip: '127.0.0.1' };

  it('a download carries name, version, supplier (or account) and minute', () => {
    expect(stampedFileName('底座平面图', 'V2.0', 'dwg', stamp)).toBe(
      '底座平面图_V2.0_宁波东方电子科技有限公司_202611220205.dwg',
    );
    expect(stampedFileName('底座平面图', 'V2.0', 'dxf', { ...stamp, supplierName: null, account: 'demo3' })).toBe(
      '底座平面图_V2.0_demo3_202611220205.dxf',
    );
  });

  it('path separators and reserved characters never reach a file name', () => {
    expect(plainFileName('../etc/passwd: "x"?', 'A/B', 'pdf')).toBe('.._etc_passwd_ _x__A_B.pdf');
  });

  it('Content-Disposition has an ASCII fallback and the RFC 8187 UTF-8 name', () => {
    const header = contentDisposition('attachment', "图纸(1)_it's*.pdf");
    expect(header).toBe(
      `attachment; filename="_(1)_it's*.pdf"; filename*=UTF-8''%E5%9B%BE%E7%BA%B8%281%29_it%27s%2A.pdf`,
    );
    expect(decodeURIComponent(header.split("UTF-8''")[1]!)).toBe("图纸(1)_it's*.pdf");
  });
});
