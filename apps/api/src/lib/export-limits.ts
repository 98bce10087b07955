/** The one answer every export gives when its rows exceed the configured cap (EXPORT_MAX_ROWS). */
import { badRequest } from '../plugins/errors.ts';

export const tooManyToExport = (max: number) => badRequest(`导出结果超过 ${max} 条，请缩小查询范围后再导出`);
