/**
 * The one API client: POST JSON to /esm-server/api, cookies, envelope unwrapping,
 * 10000007 → /esm/login, an error toast by status from the legacy portal's catalogue, status 600
 * 网络连接失败 when nothing answered and 请求超时 on time-out. A server error or no answer shows the
 * request's id (请求编号) with it, so that a user can quote it to the operators.
 */
import {
  API_BASE,
  type EndpointBody,
  type EndpointDef,
  type EndpointResponse,
  CODES,
  LOGIN_PATH,
  NETWORK_ERROR_STATUS,
  NETWORK_ERROR_TEXT,
  TOAST_DURATION_SECONDS,
  UI,
  statusErrorText,
  timeoutText,
  type FieldError,
} from '@esm/contracts/basics';
import { feedback } from './feedback.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly path: string,
    readonly errors: FieldError[] = [],
    readonly body?: Record<string, unknown>,
    /** The server's X-Request-Id of the answer, else the page's own id for the call (no answer came back). */
    readonly requestId?: string,
  ) {
    super(message);
  }
}

/**
 * The page's own id for a call, sent as X-Client-Request-Id (the server logs it beside its own):
 * what the toast can show when no answer, and so no server id, came back. crypto.randomUUID
 * exists only on HTTPS pages; getRandomValues everywhere.
 */
export function clientRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** What the toast adds for a failure an operator must look into: a server error, or no answer. */
function withRequestId(text: string, err: ApiError): string {
  return err.requestId && (err.status >= 500 || err.status === NETWORK_ERROR_STATUS)
    ? `${text}（请求编号 ${err.requestId}）`
    : text;
}

export interface RequestOptions {
  /** Don't toast on failure: the caller shows the error itself (forms, the session check). */
  silent?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

function toast(err: ApiError) {
  const catalogue = statusErrorText(err.status, err.path);
  const text =
    err.message && err.message !== catalogue && err.status !== NETWORK_ERROR_STATUS
      ? `${err.message}（${catalogue}）`
      : catalogue;
  // keyed without the id: the same failure repeated replaces its toast (showing the latest id)
  feedback.message?.error({ content: withRequestId(text, err), duration: TOAST_DURATION_SECONDS, key: text });
}

export function goToLogin() {
  if (window.location.pathname !== LOGIN_PATH) {
    const back = window.location.pathname + window.location.search;
    // the login page says why the user is there: the session ended while they were working
    window.location.assign(`${LOGIN_PATH}?redirect=${encodeURIComponent(back)}&reason=expired`);
  }
}

const urlOf = (path: string) => `${API_BASE}/${path.replace(/^\//, '')}`;

/** A JSON call as post() sends it. */
const sendJson = (url: string, body: unknown, clientId: string, signal: AbortSignal) =>
  fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-client-request-id': clientId },
    body: JSON.stringify(body ?? {}),
    signal,
  });

/** A call and its body as one string: what a call sent ahead is taken by. */
const callKey = (path: string, body: unknown) => `${path} ${JSON.stringify(body ?? {})}`;

/** A call sent ahead is taken by a post() within this long of its sending; later ones ask again. */
const SENT_AHEAD_FRESH_MS = 10_000;

/** Calls sent before their caller's code had come (`sendAhead`), by callKey; each is taken once. */
const sentAhead = new Map<string, { response: Promise<Response>; clientId: string; at: number }>();

/**
 * Sends the JSON call `path` with `body` now, for a post() of the same call and body that comes
 * within SENT_AHEAD_FRESH_MS to take as its own answer (api/firstCalls.ts: a page opened directly
 * asks for its first answers before its code has come). A call nobody takes is dropped unread.
 */
export function sendAhead(path: string, body: unknown): void {
  const clientId = clientRequestId();
  const response = sendJson(urlOf(path), body, clientId, AbortSignal.timeout(UI.requestTimeoutMs));
  response.catch(() => {}); // a failure is the taker's to report
  sentAhead.set(callKey(path, body), { response, clientId, at: Date.now() });
}

function takeSentAhead(path: string, body: unknown) {
  const key = callKey(path, body);
  const sent = sentAhead.get(key);
  sentAhead.delete(key);
  return sent && Date.now() - sent.at <= SENT_AHEAD_FRESH_MS ? sent : undefined;
}

/** The JSON calls post() sends while `recordCalls` runs its function, else null. */
let recording: { path: string; body: unknown }[] | null = null;

/**
 * The JSON calls `fn` sends while it runs (synchronously: a react-query fetch calls its function at
 * once), each with its body — what a page's `fetchAhead` asks first (api/firstCalls.ts).
 */
export function recordCalls(fn: () => void): { path: string; body: unknown }[] {
  const calls: { path: string; body: unknown }[] = [];
  const outer = recording;
  recording = calls;
  try {
    fn();
  } finally {
    recording = outer;
  }
  return calls;
}

async function post<E>(path: string, body: unknown = {}, opts: RequestOptions = {}): Promise<E> {
  recording?.push({ path, body });
  const url = urlOf(path);
  const timeoutMs = opts.timeoutMs ?? UI.requestTimeoutMs;
  const sent = takeSentAhead(path, body);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), timeoutMs);
  opts.signal?.addEventListener('abort', () => controller.abort(opts.signal?.reason));
  const clientId = sent?.clientId ?? clientRequestId();

  let res: Response;
  try {
    res = await (sent?.response ?? sendJson(url, body, clientId, controller.signal));
  } catch (e) {
    clearTimeout(timer);
    if (opts.signal?.aborted) throw e;
    const timedOut =
      (controller.signal.reason instanceof DOMException && controller.signal.reason.name === 'TimeoutError') ||
      (e instanceof DOMException && e.name === 'TimeoutError');
    return networkFailure(url, opts, timedOut ? timeoutMs : undefined, clientId);
  }
  clearTimeout(timer);

  let json: Record<string, unknown> | undefined;
  try {
    json = (await res.json()) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  if (res.ok && json && json.success !== false) return json as unknown as E;
  return fail(res.status, json, url, opts, res.headers.get('x-request-id') ?? clientId);
}

/**
 * What a failed call shows unless it is silent: 10000007 → the login page, nothing answered → the
 * network toast, otherwise a toast from the catalogue. Also for a silent call whose failure turns
 * out to matter after all (api/ahead.ts).
 */
export function report(err: ApiError): void {
  if (err.code === CODES.SESSION_EXPIRED) goToLogin();
  else if (err.status === NETWORK_ERROR_STATUS)
    feedback.message?.error({
      content: withRequestId(err.message, err),
      duration: TOAST_DURATION_SECONDS,
      key: 'network',
    });
  else toast(err);
}

/** A refused call: reported (above) unless silent; then throws. `requestId`: the answer's X-Request-Id. */
export function fail(
  status: number,
  json: Record<string, unknown> | undefined,
  url: string,
  opts: RequestOptions,
  requestId?: string,
): never {
  const code = typeof json?.code === 'string' ? json.code : String(status);
  const err = new ApiError(
    status,
    code,
    typeof json?.message === 'string' ? json.message : '',
    url,
    (json?.errors as FieldError[]) ?? [],
    json,
    requestId,
  );
  if (!opts.silent) report(err);
  throw err;
}

/** Nothing answered (status 600, 网络连接失败) or the time-out passed. */
export function networkFailure(url: string, opts: RequestOptions, timeoutMs?: number, requestId?: string): never {
  const err = new ApiError(
    NETWORK_ERROR_STATUS,
    String(NETWORK_ERROR_STATUS),
    timeoutMs ? timeoutText(timeoutMs) : NETWORK_ERROR_TEXT,
    url,
    [],
    undefined,
    requestId,
  );
  if (!opts.silent) report(err);
  throw err;
}

export interface BlobResult {
  blob: Blob;
  fileName: string;
  type: string;
}

export interface BlobOptions extends RequestOptions {
  /** Called once the headers have arrived, before the bytes: what the server said about them. */
  onHeaders?: (headers: Headers) => void;
  /** Bytes received so far and the total when the server sent a Content-Length. */
  onProgress?: (received: number, total: number | null) => void;
}

/** The file name of a Content-Disposition header (RFC 6266 filename* first). */
export function dispositionFileName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain?.[1] ?? fallback;
}

/**
 * POSTs JSON and receives bytes (a stamped drawing, an Excel export), reporting the headers and
 * then progress as they arrive. Failures come back as the JSON envelope and are handled like post()'s.
 */
async function postBlob(path: string, body: unknown, opts: BlobOptions = {}): Promise<BlobResult> {
  const url = urlOf(path);
  const clientId = clientRequestId();
  let res: Response;
  try {
    const headers = { 'content-type': 'application/json', 'x-client-request-id': clientId };
    res = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers,
      body: JSON.stringify(body ?? {}),
      signal: opts.signal,
    });
  } catch (e) {
    if (opts.signal?.aborted) throw e;
    return networkFailure(url, opts, undefined, clientId);
  }
  if (!res.ok)
    return fail(
      res.status,
      (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined,
      url,
      opts,
      res.headers.get('x-request-id') ?? clientId,
    );
  const total = Number(res.headers.get('content-length')) || null;
  const type = res.headers.get('content-type') ?? 'application/octet-stream';
  const fileName = dispositionFileName(res.headers.get('content-disposition'), 'download');
  opts.onHeaders?.(res.headers);
  if (!res.body || !opts.onProgress) return { blob: await res.blob(), fileName, type };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    opts.onProgress(received, total);
  }
  return { blob: new Blob(chunks as BlobPart[], { type }), fileName, type };
}

/**
 * POSTs a multipart form (an upload) and reports the bytes sent: fetch cannot report upload
 * progress, XMLHttpRequest can. No time-out by default (a 50 MB upload may take minutes); the
 * answer and failures are handled like post()'s.
 */
function postMultipart<E>(
  path: string,
  form: FormData,
  opts: RequestOptions & { onProgress?: (sent: number, total: number) => void } = {},
): Promise<E> {
  const url = urlOf(path);
  return new Promise<E>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const settle = (failure: () => never) => {
      try {
        failure();
      } catch (e) {
        reject(e);
      }
    };
    const clientId = clientRequestId();
    xhr.open('POST', url);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('x-client-request-id', clientId);
    if (opts.timeoutMs) xhr.timeout = opts.timeoutMs;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress?.(e.loaded, e.total);
    };
    xhr.onload = () => {
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && json && json.success !== false) resolve(json as unknown as E);
      else settle(() => fail(xhr.status, json, url, opts, xhr.getResponseHeader('x-request-id') ?? clientId));
    };
    xhr.onerror = () => settle(() => networkFailure(url, opts, undefined, clientId));
    xhr.ontimeout = () => settle(() => networkFailure(url, opts, opts.timeoutMs, clientId));
    xhr.onabort = () => reject(opts.signal?.reason ?? new DOMException('已取消', 'AbortError'));
    opts.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

/** Hands a blob to the browser as a download. */
export function saveBlob({ blob, fileName }: BlobResult) {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

// ---- the typed calls: a page names a declared call, never a path ---------------------------------

/** Calls a JSON endpoint declared in contracts; resolves to its envelope, typed by the declaration. */
export function call<E extends EndpointDef>(
  e: E,
  body?: EndpointBody<E>,
  opts?: RequestOptions,
): Promise<EndpointResponse<E>> {
  return post<EndpointResponse<E>>(e.path, body ?? {}, opts);
}

/**
 * `call` by the declaration's path alone, typed by the declaration (`import type`): for the
 * session calls on the login page's first load, which must not load the declarations' zod
 * schemas (the path constant is the one the declaration uses, SESSION_PATHS).
 */
export function callAt<E extends EndpointDef>(
  path: E['path'],
  body?: EndpointBody<E>,
  opts?: RequestOptions,
): Promise<EndpointResponse<E>> {
  return post<EndpointResponse<E>>(path, body ?? {}, opts);
}

/** Calls a bytes endpoint (a stamped file, an export): the bytes, their name and type. */
export function callBlob<E extends EndpointDef & { kind: 'bytes' }>(
  e: E,
  body: EndpointBody<E>,
  opts?: BlobOptions,
): Promise<BlobResult> {
  return postBlob(e.path, body, opts);
}

/** Calls a multipart endpoint (an upload) with progress; resolves to its envelope. */
export function callMultipart<E extends EndpointDef & { kind: 'multipart' }>(
  e: E,
  form: FormData,
  opts?: RequestOptions & { onProgress?: (sent: number, total: number) => void },
): Promise<EndpointResponse<E>> {
  return postMultipart<EndpointResponse<E>>(e.path, form, opts);
}
