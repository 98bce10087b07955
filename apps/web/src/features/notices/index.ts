/** The notices feature's public face: the header bell's summary and the links other features offer. */
export { NoticeSummary } from './NoticeSummary.tsx';
export { newNoticeHref } from './links.ts';
export { DueDate, OverdueTag } from './labels.tsx';
