/**
 * buildApp(): the whole server without listening — tests build this.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { API_BASE } from '@esm/contracts';
import { paths, type Config } from './config.ts';
import type { SqlRunner } from './db/migrations.ts';
import type { Db } from './db/database.ts';
import { errorsPlugin, frameworkErrorOptions } from './plugins/errors.ts';
import { drainPlugin } from './lib/shutdown.ts';
import { securityPlugin } from './plugins/security.ts';
import { compressionPlugin } from './plugins/compression.ts';
import { observabilityPlugin, requestIdGenerator } from './plugins/observability.ts';
import { apiDocsPlugin } from './plugins/docs.ts';
import { maintenancePlugin } from './modules/maintenance/plugin.ts';
import { localStorage, type Storage } from './lib/storage.ts';
import { sessionPlugin } from './plugins/session.ts';
import { authPlugin } from './plugins/auth.ts';
import { webPlugin } from './plugins/web.ts';
import { sessionRoutes } from './modules/session/routes.ts';
import { menuRoutes } from './modules/menu/routes.ts';
import { visitRoutes } from './modules/visits/routes.ts';
import { fileRoutes } from './modules/files/routes.ts';
import { standardlogRoutes } from './modules/standardlog/routes.ts';
import { empowerRoutes } from './modules/empower/routes.ts';
import { supplierEmpowerRoutes } from './modules/empower/supplier-routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { archiveRoutes } from './modules/archives/routes.ts';
import { supplierArchiveRoutes } from './modules/archives/supplier-routes.ts';
import { logRoutes } from './modules/logs/routes.ts';
import { exportRoutes } from './modules/export/routes.ts';
import { noticeRoutes } from './modules/notices/routes.ts';
import { supplierNoticeRoutes } from './modules/notices/supplier-routes.ts';
import { documentIssueRoutes } from './modules/documentIssues/routes.ts';
import { problemTypeRoutes } from './modules/problemTypes/routes.ts';
import { supplierProblemTypeRoutes } from './modules/problemTypes/supplier-routes.ts';
import { bomRoutes } from './modules/bom/routes.ts';
import { supplierBomRoutes } from './modules/bom/supplier-routes.ts';
import { permissionsPlugin } from './modules/permissions/plugin.ts';
import { permissionRoutes } from './modules/permissions/routes.ts';
import { phoneLogRoutes } from './modules/phoneLog/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';

import { countersignRoutes } from './modules/countersign/routes.ts';
import { supplierCountersignRoutes } from './modules/countersign/supplier-routes.ts';
import { notificationRoutes, outboxPlugin } from './modules/notifications/index.ts';
export interface AppDeps {
  config: Config;
  db: Db;
  dbKind: 'postgres' | 'embedded';
  /** The health check's plain SQL (the driver's, db/sql-runner.ts); defaults to Prisma's raw query. */
  sql?: Pick<SqlRunner, '$queryRawUnsafe'>;
  /** Pino options; tests pass `false` for silence. */
  logger?: boolean | object;
  /** Where uploaded files live; defaults to the local folder config.storageDir. */
  storage?: Storage;
}

export async function buildApp({
  config,
  db,
  dbKind,
  sql = db,
  logger,
  storage = localStorage(config.storageDir),
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1 << 20,
    // never the header as such (any client could pick its id): a UUID, or a trusted proxy's id
    requestIdHeader: false,
    genReqId: requestIdGenerator(config),
    // A request that reaches an open connection while the server stops (a load balancer had not yet
    // seen the health check turn 503) is served, with Connection: close, rather than refused: only
    // new connections are refused (lib/shutdown.ts).
    return503OnClosing: false,
    // Every route validates and serializes with zod (set below for the root, inherited by every
    // plugin). Naming the same compilers as the factories keeps Fastify from loading its default
    // ones — ajv, ajv-formats, fast-json-stringify: ~110 modules, ~50–60 ms of CPU at each start
    // — which no route would use.
    // (Fastify types these factories as ajv's; the compilers they return are the zod ones below.)
    schemaController: {
      compilersFactory: {
        buildValidator: (() => validatorCompiler) as never,
        buildSerializer: (() => serializerCompiler) as never,
      },
    },
    ...frameworkErrorOptions,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin);
  // before every other plugin's hooks: a request refused by them still carries its id
  await app.register(observabilityPlugin, { config });
  // before every route: counts requests in flight, and turns the health answers 503 at a stop
  await app.register(drainPlugin);
  await app.register(securityPlugin, { config, apiPrefix: '/esm-server/' });
  // before every route (it hooks each route as it is declared)
  await app.register(compressionPlugin);
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'ESM 图纸档案门户 API',
        version: '1.0.0',
        description: '信封 { success, code, message, data }；分页请求 results/page/sortField/sortOrder。',
      },
      servers: [],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(apiDocsPlugin, { config, db });
  await app.register(authPlugin, { db });
  // button and column permissions of every route declared after it
  await app.register(permissionsPlugin, { db });

  await app.register(healthRoutes, { sql, dbKind, storage });
  await app.register(
    async (api) => {
      // Sessions only for the api: static files and the SPA's HTML never read or touch them (an
      // HTML load must not clear the cookie of an expired session before user/current sees it).
      await api.register(sessionPlugin, { config, db });
      await api.register(sessionRoutes, { db, config });
      await api.register(menuRoutes, { db });
      await api.register(visitRoutes, { db });
      await api.register(archiveRoutes, { db, storage, uploadMaxBytes: config.uploadMaxBytes });
      await api.register(supplierArchiveRoutes, { db });
      await api.register(logRoutes, { db });
      await api.register(exportRoutes, { db, exportMaxRows: config.exportMaxRows });
      await api.register(fileRoutes, { db, storage, stampConcurrency: config.stampConcurrency });
      await api.register(standardlogRoutes, { db });
      const empowerRules = { maxPeriodDays: config.empowerMaxPeriodDays, expiringDays: config.empowerExpiringDays };
      await api.register(empowerRoutes, { db, rules: empowerRules, exportMaxRows: config.exportMaxRows });
      await api.register(supplierEmpowerRoutes, { db, rules: empowerRules });
      await api.register(noticeRoutes, { db });
      await api.register(supplierNoticeRoutes, { db });
      // questions on drawings (both sides, with their uploads), problem types and roles
      await api.register(documentIssueRoutes, { db, storage });
      await api.register(problemTypeRoutes, { db });
      await api.register(supplierProblemTypeRoutes, { db });
      await api.register(countersignRoutes, { db });
      await api.register(supplierCountersignRoutes, { db });
      await api.register(bomRoutes, { db });
      await api.register(supplierBomRoutes, { db, exportMaxRows: config.exportMaxRows });
      await api.register(permissionRoutes, { db });
      await api.register(phoneLogRoutes, { db, exportMaxRows: config.exportMaxRows });
      await api.register(auditRoutes, { db });
      await api.register(notificationRoutes, {
        db,
        mail: config.databaseUrl ? config.mail : undefined,
        exportMaxRows: config.exportMaxRows,
      });
    },
    { prefix: API_BASE },
  );
  await app.register(webPlugin, { webDist: paths.webDist });
  await app.register(maintenancePlugin, { config, db, storage });
  // the daily jobs (reminders; with SMTP_URL the outbox and the digests): stopped when the app closes
  await app.register(outboxPlugin, { config, db });
  return app;
}
