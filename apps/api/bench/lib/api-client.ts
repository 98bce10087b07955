/** The benchmarks' side of the api: JSON posts with a session cookie, over one undici Pool. */
import type { Pool } from 'undici';

export const API = '/esm-server/api';
export const DEMO_PASSWORD = 'Esm@2026';
const JSON_HEADERS = { 'content-type': 'application/json' };

export interface ApiAnswer<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: { success?: boolean; code?: string; message?: string; data?: T; total?: number; totalCapped?: boolean };
}

export async function apiPost<T = unknown>(
  http: Pool,
  path: string,
  body: unknown,
  cookie?: string,
): Promise<ApiAnswer<T>> {
  const res = await http.request({
    method: 'POST',
    path: `${API}/${path}`,
    headers: cookie ? { ...JSON_HEADERS, cookie } : JSON_HEADERS,
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, json: (await res.body.json()) as ApiAnswer<T>['json'] };
}

/** Signs in and answers the `esm_sid=…` cookie of a new session. */
export async function login(http: Pool, account: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await apiPost(http, 'user/login', { account, password });
  if (res.status !== 200 || res.json.success !== true)
    throw new Error(`login ${account}: ${res.status} ${JSON.stringify(res.json)}`);
  const cookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('esm_sid='));
  if (!cookie) throw new Error('login set no esm_sid cookie');
  return cookie.split(';')[0]!;
}

/** The session id inside a signed esm_sid cookie (`<sid>.<signature>`, URL-encoded). */
export function sidOf(cookie: string): string {
  const v = decodeURIComponent(cookie.slice('esm_sid='.length));
  return v.slice(0, v.lastIndexOf('.'));
}

/** A call answering bytes (file/view, file/download, an export): its status and size; the body is read to the end. */
export async function apiBytes(
  http: Pool,
  path: string,
  body: unknown,
  cookie: string,
): Promise<{ status: number; bytes: number }> {
  const res = await http.request({
    method: 'POST',
    path: `${API}/${path}`,
    headers: { ...JSON_HEADERS, cookie },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, bytes: (await res.body.arrayBuffer()).byteLength };
}
