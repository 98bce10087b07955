/**
 * The one error handler (design §5): every failure leaves as the envelope
 * `{ success: false, code, message, data: null, errors? }` with the HTTP status of its class
 * and a message a user can act on. A 5xx never leaks internals.
 */
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { GENERIC_ERROR_TEXT, type FieldError } from '@esm/contracts';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code: string = String(statusCode),
    readonly errors?: FieldError[],
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new AppError(400, message, '400', errors);
export const forbidden = (message = '您没有权限使用该功能') => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);

const FIELD_LABELS: Record<string, string> = { account: '账号', password: '密码', results: '每页条数', page: '页码' };

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

export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    let status = 500;
    let code = '500';
    let message = GENERIC_ERROR_TEXT;
    let errors: FieldError[] | undefined;

    if (error instanceof AppError) {
      status = error.statusCode;
      code = error.code;
      message = error.message;
      errors = error.errors;
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      status = 400;
      errors = fieldErrors(error.validation.map((v) => ({ path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'), message: v.message ?? '请求参数有误' })));
      message = summary(errors);
    } else if (error instanceof ZodError) {
      status = 400;
      errors = fieldErrors(error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
      message = summary(errors);
    } else {
      const e = error as FastifyError;
      switch (e.code) {
        case 'FST_ERR_CTP_BODY_TOO_LARGE':
          status = 413;
          message = `请求内容过大，上限为 ${humanBytes(app.initialConfig.bodyLimit ?? 1 << 20)}`;
          break;
        case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
          status = 415;
          message = '不支持的请求内容类型，请以 JSON 提交';
          break;
        case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        case 'FST_ERR_CTP_INVALID_JSON_BODY':
          status = 400;
          message = '请求内容不是有效的 JSON';
          break;
        default:
          if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
            status = e.statusCode;
            message = e instanceof SyntaxError ? '请求内容不是有效的 JSON' : e.message || '请求有误';
          }
      }
    }
    if (!(error instanceof AppError)) code = String(status);

    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ status, code, message }, 'request refused');
    reply.status(status).send({ success: false, code, message, data: null, ...(errors ? { errors } : {}) });
  });
});
