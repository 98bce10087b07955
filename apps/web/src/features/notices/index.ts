/** The notices feature's public face: the header bell and the links other features offer. */
export { NoticeBell } from './NoticeBell.tsx';
export { newNoticeHref } from './links.ts';
export { DueDate, OverdueTag } from './labels.tsx';
