import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { pdfjsAssets } from './pdfjs-assets.ts';

// Served by the api under /esm (design §2); `pnpm dev` proxies the api on :3000.
export default defineConfig({
  base: '/esm/',
  plugins: [react(), pdfjsAssets()],
  server: { proxy: { '/esm-server': 'http://localhost:3000' } },
  // Page chunks are named after the files src/pages/chunks/{dashboard,login,error}.tsx (spec §2
  // names those three); libraries are left to Rollup's own splitting.
  build: { chunkSizeWarningLimit: 1500 },
});
