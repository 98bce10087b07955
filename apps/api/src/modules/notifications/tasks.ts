/** The job queue's task names (outbox.ts runs them; service.ts adds their jobs). */
export const DELIVER_TASK = 'deliver_notification';
