/**
 * An error with the HTTP status and Chinese message it is answered with (plugins/errors.ts). On
 * its own, without imports, so that code running outside the server — the stamping worker
 * (modules/files/stamp-worker.ts) — can throw one without loading the error handler's framework.
 */
import type { FieldError } from '@esm/contracts';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string = String(statusCode),
    readonly errors?: FieldError[],
    /** Extra response headers (Retry-After on a 429 or 503). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}
