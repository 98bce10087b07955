/**
 * Countersign lists (会签单): the manufacturer issues a sign-off document to one supplier
 * about a drawing change or a new drawing — title, an optional published change notice, the file
 * versions concerned (with their sha256), the items to agree on, a due date and the internal
 * countersigners in order. The supplier signs first (step 0), then each internal signer in turn
 * (steps 1…n); any of them may return it with a reason, which ends the round; the issuer edits
 * and reissues it as a new round, earlier rounds staying readable. On completion the server
 * produces the stamped sign-off sheet (PDF). One file per sub-resource; the calls in calls.ts.
 */
export * from './state.ts';
export * from './content.ts';
export * from './signatures.ts';
export * from './lists.ts';
export * from './calls.ts';
