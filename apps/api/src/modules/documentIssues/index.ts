/**
 * The documentIssues module's public face: who answers a document issue and whether they see its file.
 * Other modules and the demo seed import this module only through this file.
 */
export { ANSWERER_TYPE, answererSeesFile } from './query.ts';
