/** The files feature's public face: the viewer and the stamped file actions. */
import { lazyDialog } from '../../lib/lazyLoaded.ts';

export type { FileViewerProps, ViewerFile } from './FileViewer.tsx';
export { downloadFile, type Run } from './fileActions.ts';

/** The viewer (a drawer: toolbar, progress, pdf.js) fetched after its list page, opened by a click on a file. */
export const FileViewer = lazyDialog(
  () => import('./FileViewer.tsx'),
  (m) => m.FileViewer,
  (p) => p.file !== null,
);
