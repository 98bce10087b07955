/**
 * The one error handler: every failure leaves as the envelope
 * `{ success: false, code, message, data: null, errors? }` with the HTTP status of its class
 * and a message in Chinese a user can act on. A 5xx never leaks internals.
 *
 * Three ways out, so that nothing a client can send meets an English or bare framework answer:
 *  - the error handler below: route, validation, static-file and database errors;
 *  - `frameworkErrors`: what Fastify refuses before routing (a URL it cannot decode, a path
 *    parameter over maxParamLength);
 *  - `clientErrorHandler`: what Node's HTTP parser refuses before Fastify sees a request
 *    (headers over the size limit, a malformed request line), written straight to the socket.
 * app.ts passes the last two to Fastify's constructor (`frameworkErrorOptions`).
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { GENERIC_ERROR_TEXT, HTTP_STATUS_TEXTS, type FieldError, type NamedFact } from '@esm/contracts';
import { isBadInputError, isDatabaseUnavailable } from '../db/unavailable.ts';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string = String(statusCode),
    readonly errors?: FieldError[],
    /** Extra response headers (Retry-After on a 429 or 503). */
    readonly headers?: Record<string, string>,
    /**
     * The governed column whose fact the message names (who holds a question): the permissions
     * plugin says it without the name to a caller for whom that column is hidden, masked to one
     * for whom it is masked.
     */
    readonly named?: NamedFact,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new AppError(400, message, '400', errors);
export const forbidden = (message = '您没有权限使用该功能') => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string, named?: NamedFact) =>
  new AppError(409, message, '409', undefined, undefined, named);

/** While the database cannot be reached: how long a client should wait before retrying. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
export const DATABASE_UNAVAILABLE_TEXT = '服务暂时不可用，请稍后重试；如持续出现请联系管理员';
export const databaseUnavailable = () =>
  new AppError(503, DATABASE_UNAVAILABLE_TEXT, '503', undefined, {
    'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
  });

export const BAD_INPUT_TEXT = '请求参数有误：含有无效的字符、日期或超出范围的数值';

// no `page`: the paging field's messages all name 页码 already, and on the permission calls `page`
// is a route (页面), where 页码 in front misled
const FIELD_LABELS: Record<string, string> = { account: '账号', password: '密码', results: '每页条数' };

/** Framework refusals by code, in words a user can act on. */
const FRAMEWORK_TEXTS: Record<string, { status: number; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, message: '请求地址无效，请检查链接是否完整' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: '请求地址过长' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, message: '请求有误' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: '请求内容长度与声明不符' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: '不支持的请求内容类型，请以 JSON 提交' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: '请求内容不是有效的 JSON' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: '请求内容不是有效的 JSON' },
};

/** Chinese text for a 4xx whose error carries no Chinese message of its own (static files, framework). */
const STATUS_TEXTS: Record<number, string> = {
  ...HTTP_STATUS_TEXTS,
  400: '请求有误',
  403: '禁止访问',
  404: '页面不存在',
  405: '不支持该请求方法',
  411: '请求缺少内容长度',
  412: '请求的前提条件不满足',
  415: '不支持的请求内容类型',
  416: '请求的范围无效',
  429: '请求过于频繁，请稍后再试',
  431: '请求地址或请求头过长',
};
export const statusText = (status: number) => STATUS_TEXTS[status] ?? (status >= 500 ? GENERIC_ERROR_TEXT : '请求有误');

const hasChinese = (s: string) => /[\u4e00-\u9fff]/.test(s);

function fieldErrors(issues: { path: string; message: string }[]): FieldError[] {
  return issues.map((i) => ({ field: i.path || '(body)', message: i.message }));
}

function summary(errors: FieldError[]): string {
  const first = errors[0];
  if (!first) return '请求参数有误';
  const label = FIELD_LABELS[first.field];
  return label && !first.message.includes(label) ? `${label}：${first.message}` : first.message;
}

function humanBytes(n: number): string {
  return n >= 1 << 20 ? `${Math.round(n / (1 << 20))} MB` : `${Math.round(n / 1024)} KB`;
}

export interface Refusal {
  status: number;
  code: string;
  message: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
}

/** What any error becomes on the wire. */
export function refusalOf(error: unknown, bodyLimit: number): Refusal {
  if (error instanceof AppError) {
    return {
      status: error.statusCode,
      code: error.code,
      message: error.message,
      errors: error.errors,
      headers: error.headers,
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = fieldErrors(
      error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? '请求参数有误',
      })),
    );
    return { status: 400, code: '400', message: summary(errors), errors };
  }
  if (error instanceof ZodError) {
    const errors = fieldErrors(error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
    return { status: 400, code: '400', message: summary(errors), errors };
  }
  if (isDatabaseUnavailable(error)) return refusalOf(databaseUnavailable(), bodyLimit);
  if (isBadInputError(error)) return { status: 400, code: '400', message: BAD_INPUT_TEXT };
  const e = error as Partial<FastifyError> & { status?: number };
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return { status: 413, code: '413', message: `请求内容过大，上限为 ${humanBytes(bodyLimit)}` };
  const known = e.code ? FRAMEWORK_TEXTS[e.code] : undefined;
  if (known) return { status: known.status, code: String(known.status), message: known.message };
  const status = e.statusCode ?? e.status;
  if (status && status >= 400 && status < 500) {
    const message =
      error instanceof SyntaxError
        ? '请求内容不是有效的 JSON'
        : e.message && hasChinese(e.message)
          ? e.message
          : statusText(status);
    return { status, code: String(status), message };
  }
  return { status: 500, code: '500', message: GENERIC_ERROR_TEXT };
}

/** Headers every refusal carries, including those sent before any hook ran. */
const BARE_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

function envelope(r: Refusal) {
  return { success: false, code: r.code, message: r.message, data: null, ...(r.errors ? { errors: r.errors } : {}) };
}

function logRefusal(request: FastifyRequest, error: unknown, r: Refusal) {
  if (r.status === 503) request.log.warn({ err: error }, 'database unavailable');
  // the database refused a value the schemas let through: a 400 for the caller, a warning for us
  else if (r.message === BAD_INPUT_TEXT) request.log.warn({ err: error }, 'value refused by the database');
  else if (r.status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ status: r.status, code: r.code, message: r.message }, 'request refused');
}

/** The refusal a request is answered with, while its envelope is serialised (the permissions plugin reads `named`). */
const refusals = new WeakMap<FastifyRequest, AppError>();
export const refusalSent = (request: FastifyRequest): AppError | undefined => refusals.get(request);

export function sendRefusal(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  const r = refusalOf(error, request.server.initialConfig.bodyLimit ?? 1 << 20);
  if (error instanceof AppError) refusals.set(request, error);
  logRefusal(request, error, r);
  if (r.headers) reply.headers(r.headers);
  return reply.status(r.status).send(envelope(r));
}

/** Fastify constructor options: the refusals that happen before routing (app.ts). */
export const frameworkErrorOptions: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> = {
  frameworkErrors(error, request, reply) {
    const r = refusalOf(error, request.server.initialConfig.bodyLimit ?? 1 << 20);
    logRefusal(request, error, r);
    // no hook runs for these requests: the headers the security plugin would add, by hand
    void (reply as FastifyReply)
      .status(r.status)
      .headers(BARE_HEADERS)
      .header('X-Request-Id', request.id)
      .send(envelope(r));
  },
  clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
    if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
      socket.destroy(err);
      return;
    }
    // (a URL too long for the parser is part of the header size: 431 too)
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message = status === 400 ? '请求格式有误' : status === 408 ? '请求超时，请重试' : statusText(status);
    const body = JSON.stringify(envelope({ status, code: String(status), message }));
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  },
};

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error, request, reply) => sendRefusal(request, reply, error));
});
