/**
 * The files module's public face: a file's access check and snapshot, for every module that serves
 * a file or records an action on it.
 * Other modules and the demo seed import this module only through this file.
 */
export {
  agreementRefusal,
  currentAgreement,
  FILE_NOT_FOUND_TEXT,
  findFile,
  HiddenFileError,
  isFileId,
  logReasonOf,
  NO_AGREEMENT_TEXT,
  NO_SUPPLIER_TEXT,
  snapshotOf,
  supplierFileRefusal,
  supplierSees,
} from './access.ts';
