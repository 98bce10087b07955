import { statusErrorText } from '@esm/contracts';
import { ApiError } from '../../../api/client.ts';

/**
 * What to tell the user when a call made with `silent` fails: the server's own words when it
 * gave some (413 with the limit, 400 "导出行数超过…"), else the catalogue text for the status.
 */
export function serverErrorText(e: unknown, fallback: string): string {
  if (e instanceof ApiError) return e.message || statusErrorText(e.status, e.path) || fallback;
  return fallback;
}
