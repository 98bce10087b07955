import './jitless.ts';
import { z } from 'zod';

// Zod's own messages in Chinese wherever a schema does not give its own.
z.config(z.locales.zhCN());

// shared pieces
export * from './codes.ts';
export * from './endpoint.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './fields.ts';
export * from './paging.ts';
export * from './routes.ts';
export * from './pages.ts';
export * from './ui.ts';
export * from './workflow.ts';
// one file per domain
export * from './archives.ts';
export * from './empower/index.ts';
export * from './export.ts';
export * from './files.ts';
export * from './logs.ts';
export * from './menu.ts';
export * from './notices/index.ts';
export * from './session.ts';
export * from './standardlog.ts';
export * from './visits.ts';
export * from './bom/index.ts';
export * from './permissions/index.ts';
export * from './phoneLog.ts';
export * from './audit.ts';
export * from './endpoints.ts';
// questions on drawings, problem types and the SQE / product-line role table
export * from './documentIssues/index.ts';
export * from './problemTypes.ts';
export * from './countersign/index.ts';
export * from './notifications.ts';
