/**
 * Two- and three-level BOM and sub-tier suppliers (the legacy portal's pages twoOrThreeLevelsBom /
 * twoOrThreeLevelsSupplier, its calls bomlevel/searchBomLevelList, searchBomVenderList). A first-tier
 * supplier declares, for each material it supplies (level 1), the components it is made of
 * (level 2) and their components (level 3), and which sub-tier vendor supplies each. The
 * manufacturer reads any supplier's BOM and searches where a vendor or a component is used.
 * The rules (levels, cycles, one code per parent, only supplied materials) live in the api's bom
 * module; the line's fields are declared once (lines.ts), for the form, the import and the server.
 * One file per sub-resource; the calls in calls.ts.
 */
export * from './lines.ts';
export * from './import.ts';
export * from './tree.ts';
export * from './vendors.ts';
export * from './trace.ts';
export * from './calls.ts';
