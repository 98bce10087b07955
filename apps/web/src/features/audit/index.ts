/** The audit feature's public face: its page 审计校验 (loaded when opened). */
import { AUDIT_VERIFY_PAGE } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export const pages: PageLoaders = { [AUDIT_VERIFY_PAGE]: () => import('./auditVerify.tsx') };
