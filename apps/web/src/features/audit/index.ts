/** The audit feature's public face: its pages 审计校验 and 泄露追溯 (loaded when opened). */
import { AUDIT_VERIFY_PAGE, LEAK_TRACE_PAGE } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export const pages: PageLoaders = {
  [AUDIT_VERIFY_PAGE]: () => import('./auditVerify.tsx'),
  [LEAK_TRACE_PAGE]: () => import('./leakTrace.tsx'),
};
