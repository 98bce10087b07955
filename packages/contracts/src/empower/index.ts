/**
 * Drawing authorization (empower): a supplier sees a material's drawings only while it
 * supplies the material and holds a grant valid now (the rule itself lives in the api's empower
 * module). Grants come from applications: the supplier applies for materials it supplies and a
 * period, an approver (user type 6) decides — all or some materials, the period as asked or
 * shorter — and the approval creates the grants. Grants are never edited: revoking closes one,
 * renewing is a new application. Call names are the legacy portal's where it has one.
 */
export * from './state.ts';
export * from './applications.ts';
export * from './grants.ts';
export * from './census.ts';
export * from './report.ts';
export * from './calls.ts';
