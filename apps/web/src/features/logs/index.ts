/** The logs feature's public face: the five log pages (one component, loaded when opened). */
import type { PageLoaders } from '../pages.ts';

const logPage = () => import('./logPages.tsx');
export const pages: PageLoaders = {
  drawingViewLog: logPage,
  drawingConfirmationLog: logPage,
  blueprintDownloadingLog: logPage,
  drawingPrintlog: logPage,
  confidentialityAgreement: logPage,
};
