import type { IssueRow } from '@esm/contracts';

/** The drawing a question is about, as the files feature's viewer takes it. */
export const viewerFileOf = (i: IssueRow) => ({
  id: i.fileId,
  standardCode: i.standardCode,
  name: i.fileTitle,
  version: i.version,
  fileName: i.fileName,
  fileType: i.fileType,
});
