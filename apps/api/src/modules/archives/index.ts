/**
 * The archives module's public face: the file list's query (the export module streams it) and the
 * upload checks (file names, sniffed content, multipart errors) other uploads reuse.
 * Other modules and the demo seed import this module only through this file.
 */
export {
  countFiles,
  fileBatches,
  fileFilterOf,
  type FileFilter,
  type FileRecord,
  type FileSort,
} from './file-query.ts';
export { cleanFileName, contentIs, SNIFF_BYTES, typeOfName } from './file-type.ts';
export { drain, multipartError, sniff } from './upload.ts';
