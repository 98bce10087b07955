/** The export feature's public face (features import each other only through their index). */
export { ExportButton } from './ExportButton.tsx';
