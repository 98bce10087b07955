/** The job queue's task names (outbox.ts runs them; service.ts and digest.ts add their jobs). */
export const DELIVER_TASK = 'deliver_notification';
export const DIGEST_TASK = 'deliver_digest';
