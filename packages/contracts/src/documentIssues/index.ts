/**
 * Questions on drawings (the legacy portal's "document issuing with assign and reply"): a supplier
 * asks about one version of a standard file it may see, with attachments; on submit the question
 * routes by its problem type's handling role and the drawing's product line (problemTypes.ts) to
 * one answerer (type 5), or waits in the pool (待分派) where an answerer takes or assigns it. The
 * answerer replies; the supplier closes it or reopens it with a follow-up. Every step is a message
 * of the question's thread. One file per sub-resource; the calls in calls.ts.
 */
export * from './state.ts';
export * from './attachments.ts';
export * from './questions.ts';
export * from './calls.ts';
