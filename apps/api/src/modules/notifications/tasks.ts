/** The job queue's task names (outbox.ts runs them; service.ts and digest.ts add their jobs), and what a try of a mail task needs. */
export const DELIVER_TASK = 'deliver_notification';
export const DIGEST_TASK = 'deliver_digest';

/** What a task's try knows of its job: the last try turns a refusal into FAILED. */
export interface TryJob {
  attempts: number;
  max_attempts: number;
}

/** A refused mail's answer as the log keeps it: the server's SMTP reply when there is one. */
export function refusalAnswer(e: unknown): string {
  const err = e as { response?: string; message?: string };
  return String(err.response ?? err.message ?? e).slice(0, 500);
}
