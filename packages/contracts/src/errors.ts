/**
 * The browser's error catalogue of the legacy portal: what the toast says for an HTTP status.
 * The server's own message (per field for a 400) is shown with it when there is one.
 */
export const TOAST_DURATION_SECONDS = 3;
/**
 * Nothing answered: the legacy portal's status 600, told in Chinese (the legacy client's "Network Error"
 * and "timeout of Nms exceeded" were axios' English words, which a user here cannot act on).
 */
export const NETWORK_ERROR_STATUS = 600;
export const NETWORK_ERROR_TEXT = '网络连接失败，请检查网络后重试';
export const timeoutText = (ms: number) => `请求超时（${ms / 1000} 秒内未响应），请稍后重试`;

export const HTTP_STATUS_TEXTS: Record<number, string> = {
  400: '请求错误',
  401: '未授权，请重新登录',
  403: '服务器拒绝访问',
  404: '系统异常',
  405: '操作被禁止',
  406: '请求不被接受',
  407: '需要代理授权',
  408: '请求超时，请重试',
  409: '数据冲突',
  410: '请求的资源已被删除',
  413: '请求内容过大',
  414: '请求地址过长',
};
export const GENERIC_ERROR_TEXT = '系统异常，请稍后重试或联系管理员';

/** 404 texts of the legacy paths the legacy portal's catalogue names (kept for callers of those paths). */
export const PATH_404_TEXTS: { match: (path: string) => boolean; text: string }[] = [
  {
    match: (p) => p.includes('/excpRequire/findExcpRequirePage'),
    text: '定额异常需求数据获取失败，请稍后重试或联系管理员',
  },
  { match: (p) => p.includes('/api/module/list'), text: '获取模块数据失败' },
  { match: (p) => p.includes('/api/ftySupCapacity/paging'), text: '获取工厂数据失败' },
  { match: (p) => p.includes('/api/supplier/list'), text: '获取供应商数据失败' },
  { match: (p) => p.includes('/api/code/getCode') && p.includes('itemId=1029'), text: '获取异常需求编号失败' },
  { match: (p) => p.includes('/api/excpRequire/create'), text: '上报功能异常' },
];

/** The catalogue text for a failed call: "状态码：N，<meaning>，请联系管理员". */
export function statusErrorText(status: number, path = ''): string {
  if (status === NETWORK_ERROR_STATUS) return NETWORK_ERROR_TEXT;
  if (status === 404) {
    const special = PATH_404_TEXTS.find((p) => p.match(path));
    if (special) return special.text;
  }
  const meaning = HTTP_STATUS_TEXTS[status];
  return meaning ? `状态码：${status}，${meaning}，请联系管理员` : GENERIC_ERROR_TEXT;
}
