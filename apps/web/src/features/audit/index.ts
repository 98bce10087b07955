/** The audit feature's public face: the evidence package buttons other pages show (its pages are found by file name). */
export { EvidenceDialogButton, NoticeEvidenceButton, SubjectEvidenceButton } from './EvidenceButtons.tsx';
