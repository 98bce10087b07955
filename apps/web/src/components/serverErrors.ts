import type { FormInstance } from 'antd';
import { statusErrorText } from '@esm/contracts';
import { ApiError } from '../api/client.ts';

/**
 * What to tell the user when a call made with `silent` fails: the server's own words when it
 * gave some (413 with the limit, 400 "导出行数超过…"), else the catalogue text for the status.
 */
export function serverErrorText(e: unknown, fallback: string): string {
  if (e instanceof ApiError) return e.message || statusErrorText(e.status, e.path) || fallback;
  return fallback;
}

/**
 * Puts a 400's per-field messages on the form's fields of those names (`rename` maps a request
 * field to the form's, e.g. attachmentIds → attachments).
 */
export function showFieldErrors<T>(form: FormInstance<T>, e: unknown, rename: Record<string, string> = {}): void {
  if (!(e instanceof ApiError) || e.errors.length === 0) return;
  const fields = e.errors.map((x) => ({ name: rename[x.field] ?? x.field, errors: [x.message] }));
  form.setFields(fields as Parameters<FormInstance<T>['setFields']>[0]);
}
