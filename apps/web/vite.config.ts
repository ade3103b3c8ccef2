import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API and sandbox pages are served by apps/server; in development Vite forwards them there.
const api = process.env.API_ORIGIN ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  define: {
    __APP_VERSION__: JSON.stringify(process.env.APP_VERSION ?? process.env.npm_package_version ?? '0.0.1'),
    __BRAND__: JSON.stringify(process.env.BRAND ?? 'e-wallet'),
  },
  build: { target: 'es2022', sourcemap: false, assetsInlineLimit: 0 },
  server: {
    proxy: {
      '/v2': api,
      '/sandbox': api,
      '/version.json': api,
      '/docs': api,
    },
  },
});
