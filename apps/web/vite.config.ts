import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { pdfjsAssets } from './pdfjs-assets.ts';

// Served by the api under /esm; `pnpm dev` proxies the api on :3000.
export default defineConfig({
  base: '/esm/',
  // Every asset also written as .br and .gz at build (brotli, gzip): the api serves the one the
  // browser accepts with its Content-Encoding (plugins/web.ts, preCompressed), no CPU per request.
  plugins: [react(), pdfjsAssets(), compression({ threshold: 1024 })],
  server: { proxy: { '/esm-server': 'http://localhost:3000' } },
  // Page chunks are named after the files src/pages/chunks/{dashboard,login,error}.tsx
  // names those three); libraries are left to Rolldown's own splitting.
  build: { chunkSizeWarningLimit: 1500 },
});
