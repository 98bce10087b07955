/**
 * The empower module's public face: which materials a supplier's grants open (files, archives,
 * notices and document issues all scope by it).
 * Other modules and the demo seed import this module only through this file.
 */
export { grantState, grantVerdict, materialAccess, visibleMaterialCodes, visibleMaterialSql } from './grants.ts';
