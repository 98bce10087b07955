import { z } from 'zod';

// Zod's own messages in Chinese wherever a schema does not give its own (design §6).
z.config(z.locales.zhCN());

export * from './archives.ts';
export * from './codes.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './paging.ts';
export * from './routes.ts';
export * from './session.ts';
export * from './ui.ts';
export * from './visits.ts';
