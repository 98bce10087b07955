/** The files feature's public face: the viewer and the stamped file actions. */
export { FileViewer } from './FileViewer.tsx';
export { downloadFile, type Run } from './fileActions.ts';
