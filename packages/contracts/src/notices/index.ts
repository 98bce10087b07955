/**
 * Drawing change notices: a notice lists changed standard files (old version → new
 * version, the new one already published in the archive), goes to the suppliers that supply an
 * affected material under a valid grant at publish (frozen then), and each of them reads and
 * confirms it — the confirmation only after a user of that supplier viewed every new version.
 * One file per sub-resource; the calls in calls.ts.
 */
export * from './state.ts';
export * from './notice.ts';
export * from './changes.ts';
export * from './inbox.ts';
export * from './recipients.ts';
export * from './calls.ts';
