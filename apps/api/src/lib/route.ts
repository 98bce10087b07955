/**
 * Registers a call declared in contracts: path, access, request and response
 * schemas and the OpenAPI summary all come from the one declaration; the handler gets the
 * validated body and who is calling — for a supplier-only call, the caller's supplier, already
 * checked by the auth hook (plugins/auth.ts), so a service cannot forget the scope.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ButtonDecl, ColumnSetDecl, EndpointDef, EndpointParsedBody } from '@esm/contracts';
import type { SessionUser, SupplierScope } from '../plugins/auth.ts';

type SupplierOnly = readonly (2 | 4)[];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The page button the call performs: the permissions plugin refuses it to types without it. */
    button?: ButtonDecl;
    /** The governed columns of the rows it answers: the permissions plugin drops or masks them. */
    columns?: ColumnSetDecl;
  }
}

/** Who is calling, as far as the declared access guarantees it. */
export type Caller<E extends EndpointDef> = E['access'] extends 'public'
  ? { user: SessionUser | undefined }
  : E['access'] extends SupplierOnly
    ? { user: SessionUser; supplier: SupplierScope }
    : { user: SessionUser };

export type RouteInput<E extends EndpointDef> = Caller<E> & {
  body: EndpointParsedBody<E>;
  request: FastifyRequest;
  reply: FastifyReply;
};

/** A JSON call answers its envelope (as the response schema takes it); a bytes call answers through `reply`. */
type RouteOutput<E extends EndpointDef> = E['kind'] extends 'bytes'
  ? FastifyReply
  : E['response'] extends z.ZodType
    ? z.input<E['response']> | FastifyReply
    : never;

export type RouteHandler<E extends EndpointDef> = (input: RouteInput<E>) => Promise<RouteOutput<E>>;

export function route<const E extends EndpointDef>(app: FastifyInstance, e: E, handler: RouteHandler<E>): void {
  const response = e.response
    ? Object.fromEntries([200, ...(e.alsoFor ?? [])].map((status) => [status, e.response]))
    : undefined;
  app.route({
    method: 'POST',
    url: `/${e.path}`,
    // access is checked by plugins/auth.ts; button and columns by modules/permissions/plugin.ts
    config: {
      access: e.access,
      ...(e.button ? { button: e.button } : {}),
      ...(e.columns ? { columns: e.columns } : {}),
    },
    // a bytes call streams with its own length and counts what reached the socket (plugins/compression.ts)
    ...(e.kind === 'bytes' ? { compress: false as const } : {}),
    schema: {
      tags: [e.tag],
      summary: e.summary,
      ...(e.description ? { description: e.description } : {}),
      ...(e.body ? { body: e.body } : {}),
      ...(response ? { response } : {}),
      ...(e.kind === 'multipart' ? { consumes: ['multipart/form-data'] } : {}),
    },
    handler: (request, reply) =>
      handler({
        body: request.body as EndpointParsedBody<E>,
        request,
        reply,
        user: request.user,
        supplier: request.supplier,
      } as unknown as RouteInput<E>),
  });
}
