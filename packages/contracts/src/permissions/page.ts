/** What a page may use: the caller's buttons and the mode of each governed column on one page. */
import { z } from 'zod';
import { zText } from '../fields.ts';
import { COLUMN_MODES } from './labels.ts';

const zPage = zText('页面', 200, { verb: '缺少' });
export const ZPageRequestSchema = z.object({ page: zPage });

export const ZPageButton = z.object({ code: z.string(), label: z.string(), allowed: z.boolean() });
export type PageButton = z.infer<typeof ZPageButton>;
export const ZPageButtons = z.object({ page: z.string(), buttons: z.array(ZPageButton) });
export type PageButtons = z.infer<typeof ZPageButtons>;

export const ZPageColumn = z.object({ field: z.string(), label: z.string(), mode: z.enum(COLUMN_MODES) });
export type PageColumn = z.infer<typeof ZPageColumn>;
export const ZPageColumns = z.object({ page: z.string(), columns: z.array(ZPageColumn) });
export type PageColumns = z.infer<typeof ZPageColumns>;
