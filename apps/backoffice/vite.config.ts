/**
 * The back office's build: one script and one stylesheet file, nothing inline, so its CSP allows
 * only 'self' (apps/server/src/ops/server.ts). `npm run dev -w @e-wallet/backoffice` proxies the API to
 * a server's back office port (OPS_PORT, 8081 by default).
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false }, assetsInlineLimit: 0 },
  server: {
    port: 5174,
    proxy: { '/ops': `http://127.0.0.1:${process.env.OPS_PORT ?? 8081}` },
  },
});
