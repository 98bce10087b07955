/** A question's attachments: what may be attached, how many, and the row each is answered as. */
import { z } from 'zod';
import { zId } from '../fields.ts';

// ---- attachments ---------------------------------------------------------------------------------

/** What an attachment may be: drawings and images like the archive, and Office files. */
export const ATTACHMENT_EXTENSIONS = [
  'pdf',
  'png',
  'jpg',
  'jpeg',
  'dwg',
  'dxf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
] as const;
export const ATTACHMENT_TYPES_TEXT = 'PDF、图片（PNG/JPG）、DWG/DXF、Office 文件（Word/Excel/PowerPoint）';
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
/** Attachments one message (the question, a reply, a follow-up) may carry. */
export const ATTACHMENTS_PER_MESSAGE = 10;

export const ZAttachmentRow = z.object({
  id: z.number().int(),
  fileName: z.string(),
  fileSize: z.number().int(),
  fileType: z.string(),
  /** Uploaded by staff (an answerer), not by the supplier: on the answerers' page its uploader is a 回复人 (ISSUE_COLUMNS). */
  byStaff: z.boolean(),
  /** Governed with 回复人 on the answerers' page when `byStaff`: absent when hidden, masked when masked. */
  uploadedByName: z.string().optional(),
  /** The thread message it came with (null: the question's own). */
  messageId: z.number().int().nullable(),
  createdAt: z.string(),
});
export type AttachmentRow = z.infer<typeof ZAttachmentRow>;

export const ZAttachmentIdSchema = z.object({ id: zId('附件') });
