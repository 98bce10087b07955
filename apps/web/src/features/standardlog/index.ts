/** The standardlog feature's public face: the agreement gate and confirmations. */
export { useKeepsecretGate } from './KeepsecretGate.tsx';
export { confirmFile, confirmFiles, useConfirmState } from './api.ts';
