/** The browser's error catalogue of the legacy portal, text by text. */
import { describe, expect, it } from 'vitest';
import { GENERIC_ERROR_TEXT, NETWORK_ERROR_STATUS, NETWORK_ERROR_TEXT, statusErrorText, timeoutText } from './index.ts';

// "Status code: N" plus contact the administrator, with each status's meaning.
const CATALOGUE: [number, string][] = [
  [400, '状态码：400，请求错误，请联系管理员'],
  [401, '状态码：401，未授权，请重新登录，请联系管理员'],
  [403, '状态码：403，服务器拒绝访问，请联系管理员'],
  [404, '状态码：404，系统异常，请联系管理员'],
  [405, '状态码：405，操作被禁止，请联系管理员'],
  [406, '状态码：406，请求不被接受，请联系管理员'],
  [407, '状态码：407，需要代理授权，请联系管理员'],
  [408, '状态码：408，请求超时，请重试，请联系管理员'],
  [409, '状态码：409，数据冲突，请联系管理员'],
  [410, '状态码：410，请求的资源已被删除，请联系管理员'],
  [413, '状态码：413，请求内容过大，请联系管理员'],
  [414, '状态码：414，请求地址过长，请联系管理员'],
];

describe('statusErrorText', () => {
  it.each(CATALOGUE)('%i', (status, text) => {
    expect(statusErrorText(status)).toBe(text);
    expect(statusErrorText(status, '/esm-server/api/anything')).toBe(text);
  });

  it.each([402, 411, 412, 415, 418, 429, 500, 502, 503, 504, 0, 200, 999])(
    '%i is not in the catalogue: generic text',
    (status) => {
      expect(statusErrorText(status)).toBe(GENERIC_ERROR_TEXT);
    },
  );

  it('the generic text says retry later or contact the administrator', () => {
    expect(GENERIC_ERROR_TEXT).toMatch(/系统异常/);
    expect(GENERIC_ERROR_TEXT).toMatch(/稍后重试/);
    expect(GENERIC_ERROR_TEXT).toMatch(/联系管理员/);
  });

  it('600 is a network failure, said in Chinese', () => {
    expect(NETWORK_ERROR_STATUS).toBe(600);
    expect(NETWORK_ERROR_TEXT).toBe('网络连接失败，请检查网络后重试');
    expect(statusErrorText(600)).toBe('网络连接失败，请检查网络后重试');
    expect(statusErrorText(600, '/api/module/list')).toBe('网络连接失败，请检查网络后重试');
  });

  it('time-out text', () => {
    expect(timeoutText(4000)).toBe('请求超时（4 秒内未响应），请稍后重试');
  });

  describe('legacy path-specific 404s', () => {
    const cases: [string, string][] = [
      ['/api/excpRequire/findExcpRequirePage', '定额异常需求数据获取失败，请稍后重试或联系管理员'],
      ['/api/module/list', '获取模块数据失败'],
      ['/api/ftySupCapacity/paging', '获取工厂数据失败'],
      ['/api/supplier/list', '获取供应商数据失败'],
      ['/api/code/getCode?itemId=1029', '获取异常需求编号失败'],
      ['/api/excpRequire/create', '上报功能异常'],
    ];
    it.each(cases)('404 on %s', (p, text) => {
      expect(statusErrorText(404, p)).toBe(text);
      expect(statusErrorText(404, `https://portal.example.com/esm-server${p}`)).toBe(text);
    });

    it('only for 404: other statuses on those paths get the catalogue', () => {
      for (const [p] of cases) {
        expect(statusErrorText(500, p)).toBe(GENERIC_ERROR_TEXT);
        expect(statusErrorText(403, p)).toBe('状态码：403，服务器拒绝访问，请联系管理员');
      }
    });

    it('getCode with another itemId is an ordinary 404', () => {
      expect(statusErrorText(404, '/api/code/getCode?itemId=1030')).toBe('状态码：404，系统异常，请联系管理员');
    });

    it('an ordinary path is an ordinary 404', () => {
      expect(statusErrorText(404, '/esm-server/api/haier/visitLog/page')).toBe('状态码：404，系统异常，请联系管理员');
      expect(statusErrorText(404)).toBe('状态码：404，系统异常，请联系管理员');
    });
  });
});
